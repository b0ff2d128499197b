// Path matching: a concrete path wins over a templated one for every method (OpenAPI 3.1, Paths Object), so a
// method the concrete path does not document is a 405 whose Allow lists that path's methods, not the template's.
import { describe, expect, it } from "vitest";
import { loadContract } from "../../lib/contract/index.js";
import { startSandbox } from "../../mock/sandbox/server.js";

describe("router", () => {
  it("GET /api/channel/add is not /api/channel/{id}'s GET: only POST is allowed there", () => {
    const links = loadContract("links");
    expect(links.allowedMethods("/api/channel/add")).toEqual(["post"]);
    expect(links.route("GET", "/api/channel/add")).toBeUndefined();
    expect(links.route("POST", "/api/channel/add")?.operation.operationId).toBe("addChannel");
    expect(links.route("GET", "/api/channel/12")?.operation.operationId).toBe("listChannelItems");
    expect(links.allowedMethods("/api/channel/12")).toEqual(["get"]);
  });

  it("the sandbox answers GET /api/channel/add with 405 and Allow: POST", async () => {
    const sandbox = await startSandbox({ ports: { identity: 0, links: 0, catalog: 0, pay: 0 }, rateLimit: false });
    try {
      const response = await fetch(`${sandbox.urls.links}/api/channel/add`, {
        headers: { Authorization: "Bearer demo-links-key" },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    } finally {
      await sandbox.stop();
    }
  });
});
