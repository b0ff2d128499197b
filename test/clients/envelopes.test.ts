// Fail closed on the envelope: links and pay put their success flag in every 2xx body, so a 2xx body without it (an
// empty reply, `{}`, a proxy's HTML page) is thrown as the API's error, never handed to the caller as data; and an
// error body that only looks like the envelope still gives a message that says what came back.
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { createLinksClient, LinksApiError } from "../../clients/links.js";
import { createPayClient, PayApiError } from "../../clients/pay.js";
import { ACCOUNT, expectNoSecrets, LINKS_KEY, PAY_SECRET, serve } from "./support.js";

type Reply = (response: ServerResponse) => void;
const reply =
  (status: number, contentType: string, text: string): Reply =>
  (response) =>
    void response.writeHead(status, { "Content-Type": contentType }).end(text);

const NOT_THE_ENVELOPE: Array<[string, Reply, RegExp]> = [
  ["an empty 200", reply(200, "application/json", ""), /\(no body\)/],
  ["a 200 of {}", reply(200, "application/json", "{}"), /\{\}/],
  ["a 200 of data without the flag", reply(200, "application/json", '{"data":{}}'), /\{"data":\{\}\}/],
  [
    "a 200 HTML page",
    reply(200, "text/html", "<html><body>Sign in to the Wi-Fi</body></html>"),
    /Sign in to the Wi-Fi/,
  ],
];

describe.concurrent("links: a 2xx body without the success flag is a LinksApiError", () => {
  it.each(NOT_THE_ENVELOPE)("%s", async (_name, send, message) => {
    const url = await serve((_request, _body, response) => send(response));
    const links = createLinksClient({ baseUrl: url, apiKey: LINKS_KEY, rateLimit: false });
    const error = await links.GET("/api/account").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinksApiError);
    expect((error as LinksApiError).message).toMatch(/^GET \/api\/account failed \(HTTP 200\): not the links envelope/);
    expect((error as LinksApiError).message).toMatch(message);
    expectNoSecrets(error);
  });

  it("names what came back when an error body's `error` is not the envelope's flag and message", async () => {
    const url = await serve((_request, _body, response) =>
      reply(400, "application/json", '{"error":{"code":"invalid_json","message":"Invalid JSON"}}')(response),
    );
    const links = createLinksClient({ baseUrl: url, apiKey: LINKS_KEY, rateLimit: false });
    const error = await links.POST("/api/campaign/add", { body: { name: "x" } }).catch((e: unknown) => e);
    expect((error as LinksApiError).message).toBe(
      'POST /api/campaign/add failed (HTTP 400): {"error":{"code":"invalid_json","message":"Invalid JSON"}}',
    );
  });

  it('still reads both success flags: the integer 0, and the string "0" of lists', async () => {
    const url = await serve((request, _body, response) =>
      reply(
        200,
        "application/json",
        JSON.stringify(
          request.url === "/api/account"
            ? ACCOUNT
            : { error: "0", data: { result: 0, perpage: 10, currentpage: 1, nextpage: 1, maxpage: 1, domains: [] } },
        ),
      )(response),
    );
    const links = createLinksClient({ baseUrl: url, apiKey: LINKS_KEY, rateLimit: false });
    expect((await links.GET("/api/account")).data.data.username).toBe("demo");
    expect((await links.GET("/api/domains")).data.data.domains).toEqual([]);
  });
});

describe.concurrent('pay: a 2xx body without type "success" is a PayApiError', () => {
  it.each(NOT_THE_ENVELOPE)("%s", async (_name, send, message) => {
    const url = await serve((_request, _body, response) => send(response));
    const pay = createPayClient({ baseUrl: url, shopId: "1042", apiKey: PAY_SECRET });
    const error = await pay.POST("/api/balance/").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayApiError);
    expect((error as PayApiError).message).toMatch(
      /^POST \/api\/balance\/ failed \(HTTP 200, type error\): not the pay envelope/,
    );
    expect((error as PayApiError).message).toMatch(message);
    expectNoSecrets(error);
  });
});
