// No secret of any client appears in an error or a console line, also when the server refuses or is not there.
import { describe, expect, it } from "vitest";
import { createCatalogClient } from "../../clients/catalog.js";
import { createLinksClient, LinksApiError } from "../../clients/links.js";
import { createPayClient } from "../../clients/pay.js";
import { sendJson } from "../support/http.js";
import { consoleLines, expectNoSecrets, LINKS_KEY, PAY_SECRET, SECRETS, serve } from "./support.js";

describe("secrets", () => {
  it("never appear in errors or console output", async () => {
    const logged = await consoleLines(async () => {
      const url = await serve((_request, _body, response) =>
        sendJson(response, 401, { error: 1, message: "Invalid API key" }),
      );
      const error = await createLinksClient({ baseUrl: url, apiKey: LINKS_KEY })
        .GET("/api/account")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LinksApiError);
      expectNoSecrets(error);
      const payError = await createPayClient({ baseUrl: "http://127.0.0.1:9", shopId: "1", apiKey: PAY_SECRET })
        .POST("/api/shops/", { body: {} })
        .catch((e: unknown) => e);
      expectNoSecrets(payError);
    });
    for (const line of logged) for (const secret of SECRETS) expect(line).not.toContain(secret);
  });

  it.each([
    ["a line break", `${LINKS_KEY}\n123`],
    ["a NUL", `${LINKS_KEY}\u0000`],
    ["a character beyond Latin-1", `${LINKS_KEY}\u2028`],
  ])("a header credential with %s is refused when the client is made, without quoting it", (_name, apiKey) => {
    for (const create of [
      () => createLinksClient({ baseUrl: "http://127.0.0.1:9", apiKey }),
      () => createCatalogClient({ baseUrl: "http://127.0.0.1:9", apiKey }),
    ]) {
      const error = (() => {
        try {
          create();
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toMatch(/^apiKey has a character that a header cannot carry/);
      expectNoSecrets(error);
    }
  });
});
