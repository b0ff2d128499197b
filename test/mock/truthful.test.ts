// The mock tells the truth (issue 45): its authorize error page names what is wrong with the request (a missing
// response_type), not the reason of the example it started from (an unregistered redirect_uri); links' rate-limit
// reset and the demo account's expiry are relative to now, not the fixed 2024/2025 values of the specs' examples
// (which stay as they are).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../../lib/contract/index.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { testPort } from "../support/ports.js";

const PORT = testPort(4940);
let mocks: RunningMocks;
const url = (api: string) => mocks.mocks.find((mock) => mock.api === api)!.url;

beforeAll(async () => {
  mocks = await startMocks({ apis: ["identity", "links"], ports: { identity: PORT, links: PORT + 1 } });
});
afterAll(async () => {
  await mocks?.stop();
});

describe("the mock tells the truth", () => {
  it("identity: the authorize error page names the missing response_type", async () => {
    const query = new URLSearchParams({
      client_id: "demo-app",
      redirect_uri: "http://127.0.0.1:5173/callback",
      scope: "openid",
      state: "s1",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    });
    const response = await fetch(`${url("identity")}${loadContract("identity").operation("authorize").path}?${query}`, {
      headers: { accept: "text/html" },
      redirect: "manual",
    });
    const page = await response.text();
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page).toContain("response_type");
    expect(page).not.toContain("redirect_uri is not registered");
  });

  it("links: X-RateLimit-Reset ends a window that starts now; the demo account expires in the future", async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await fetch(`${url("links")}/api/account`, { headers: { authorization: "Bearer demo-key" } });
    const after = Math.ceil(Date.now() / 1000);
    const { windowSeconds } = loadContract("links").document.info["x-rate-limit"] as { windowSeconds: number };
    const reset = Number(response.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(before);
    expect(reset).toBeLessThanOrEqual(after + windowSeconds);
    const body = (await response.json()) as { data: { expires: string } };
    expect(Date.parse(`${body.data.expires.replace(" ", "T")}Z`)).toBeGreaterThan(Date.now());
    // The contract's example keeps its fixed value: the docs and the types read it.
    expect(JSON.stringify(loadContract("links").responseExample("getAccount", "demoAccount"))).toContain("2025-12-31");
  });
});
