// Issue #38: hostile input on the wire, for each of the four APIs: malformed JSON, deep nesting, huge and short
// bodies, bad encodings, path traversal and header abuse, sent as raw bytes over a socket (fetch would tidy them).
// No answer is a 5xx, nothing hangs for more than 5 s (a stalled client is cut off), the limits are refused in each
// API's own envelope, an aborted upload logs one line, and valid requests are still answered afterwards.
import { connect } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadContract } from "../../lib/contract/index.js";
import { identityRoutes } from "../../mock/sandbox/identity.js";
import { clientsFor } from "./support/clients.js";
import { startTestSandbox, type TestSandbox } from "./support/sandbox.js";

let sandbox: TestSandbox;
const REQUEST_TIMEOUT_MS = 2_000;
const HANG_LIMIT_MS = 5_000;
const MAX_BODY = 64 * 1024;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false, maxBodyBytes: MAX_BODY, requestTimeoutMs: REQUEST_TIMEOUT_MS });
});
afterAll(() => sandbox?.stop());

const APIS = ["identity", "links", "catalog", "pay"] as const;
type Api = (typeof APIS)[number];
const WRITE_PATHS: Record<Api, string> = {
  identity: identityRoutes().token,
  links: loadContract("links").operation("addDomain").path,
  catalog: loadContract("catalog").operation("createProduct").path,
  pay: loadContract("pay").operation("createOrder").path,
};
const CREDENTIALS: Record<Api, string> = {
  identity: "",
  links: "Authorization: Bearer demo-links-key\r\n",
  catalog: "X-Seller-Api-Key: demo-seller-key\r\nIdempotency-Key: hostile\r\n",
  pay: `Authorization: Bearer ${"0".repeat(64)}\r\n`,
};
const ENVELOPES: Record<Api, (body: any) => boolean> = {
  identity: (body) => typeof body.error === "string",
  links: (body) => body.error === 1 && typeof body.message === "string",
  catalog: (body) => typeof body.error === "string" && body.error.length > 0,
  pay: (body) => body.type === "error" && typeof body.desc === "string",
};

interface RawAnswer {
  status: number | undefined;
  head: string;
  body: string;
  ms: number;
}

/** Sends bytes as they are, then waits until the sandbox closes the connection (or fails after HANG_LIMIT_MS). */
function sendRaw(
  api: Api,
  bytes: Buffer | string,
  { abortAfterMs }: { abortAfterMs?: number } = {},
): Promise<RawAnswer> {
  const port = Number(new URL(sandbox.urls[api]).port);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    const hang = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${api}: no answer and no close within ${HANG_LIMIT_MS} ms for ${String(bytes).slice(0, 120)}`));
    }, HANG_LIMIT_MS);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {}); // a reset is a close
    socket.on("close", () => {
      clearTimeout(hang);
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", rest = ""] = text.split("\r\n\r\n", 2);
      const body = /transfer-encoding: chunked/i.test(head) ? dechunk(rest) : rest;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]) || undefined;
      resolve({ status, head, body, ms: performance.now() - started });
    });
    socket.write(bytes);
    if (abortAfterMs !== undefined) setTimeout(() => socket.destroy(), abortAfterMs);
  });
}

function dechunk(text: string): string {
  let body = "";
  for (let at = 0; ;) {
    const lineEnd = text.indexOf("\r\n", at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) return body;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** A whole request with Connection: close, so that the sandbox ends the connection after its answer. */
function request(api: Api, head: string, body: Buffer | string = "", headers = ""): Buffer {
  const bytes = typeof body === "string" ? Buffer.from(body, "latin1") : body;
  const contentLength = /content-length|transfer-encoding/i.test(headers) ? "" : `Content-Length: ${bytes.length}\r\n`;
  const text = `${head} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${CREDENTIALS[api]}${contentLength}${headers}\r\n`;
  return Buffer.concat([Buffer.from(text, "latin1"), bytes]);
}

const nested = (depth: number, open = "[", close = "]", inner = "1") =>
  open.repeat(depth) + inner + close.repeat(depth);
const JSON_TYPE = "Content-Type: application/json\r\n";
const FORM_TYPE = "Content-Type: application/x-www-form-urlencoded\r\n";

/** Bodies that are no valid request, each with the headers that announce it. */
function hostileBodies(api: Api): Array<[string, Buffer | string, string]> {
  const type = api === "identity" ? FORM_TYPE : JSON_TYPE;
  return [
    ["truncated JSON", '{"domain":', type],
    ["trailing comma", "[1,]", type],
    ["NUL bytes", "\u0000\u0000{}", type],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]), type],
    ["UTF-16 with BOM", Buffer.from("\ufeff{}", "utf16le"), "Content-Type: application/json; charset=utf-16\r\n"],
    ["deep array", nested(5_000), type],
    ["deep object", nested(5_000, '{"a":', "}"), type],
    ["deep ignored property", `{"title":"x","note":${nested(10_000)}}`, type],
    ["deep form value", `grant_type=${"[".repeat(10_000)}`, FORM_TYPE],
    ["gzip that is not gzip", "not gzip at all", `${type}Content-Encoding: gzip\r\n`],
    ["bad chunk size", "zz\r\n{}\r\n0\r\n\r\n", `${type}Transfer-Encoding: chunked\r\n`],
    [
      "chunked and too long",
      `10000\r\n${"x".repeat(0x10000)}\r\n10000\r\n${"x".repeat(0x10000)}\r\n0\r\n\r\n`,
      `${type}Transfer-Encoding: chunked\r\n`,
    ],
    ["huge", "x".repeat(MAX_BODY * 2), type],
  ];
}

const TRAVERSALS = [
  "/../../../../etc/passwd",
  "/%2e%2e/%2e%2e/etc/passwd",
  "/_sandbox/pay/..%2f..%2f..%2fetc%2fpasswd",
  "/_sandbox/../api/account",
  "//etc/passwd",
  "/api/..;/..;/x",
  "/api/%00",
  "/api/%ZZ",
  `/${"a/".repeat(3000)}`,
  "*",
  "http://evil.example/api/account",
];

const HEADER_ABUSE = [
  `Content-Length: 5\r\nContent-Length: 6\r\n`,
  `Content-Length: -1\r\n`,
  `Content-Length: 1e3\r\n`,
  `Transfer-Encoding: chunked\r\nContent-Length: 3\r\n`,
  `X-Big: ${"x".repeat(20_000)}\r\n`,
  Array.from({ length: 3_000 }, (_, i) => `X-H${i}: ${i}\r\n`).join(""),
  `Authorization: Bearer ${"x".repeat(8_000)}\r\n`,
  `Content-Type: application/json; charset=\u00ff\u00fe\r\n`,
  `X-Latin1: caf\u00e9\r\n`,
  `Origin: null\r\n`,
  `Expect: 100-continue\r\n`,
];

describe.each(APIS)("%s under hostile input", (api) => {
  it("answers malformed, deep, badly encoded and oversized bodies with a 4xx in its own envelope", async () => {
    for (const [name, body, headers] of hostileBodies(api)) {
      const answer = await sendRaw(api, request(api, `POST ${WRITE_PATHS[api]}`, body, headers));
      expect(answer.status, `${name}: ${answer.head}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${name}: ${answer.head}`).toBeLessThan(500);
      if (answer.body && /content-type: application\/json/i.test(answer.head))
        expect(ENVELOPES[api](JSON.parse(answer.body)), `${name}: ${answer.body}`).toBe(true);
    }
    const huge = await sendRaw(api, request(api, `POST ${WRITE_PATHS[api]}`, "x".repeat(MAX_BODY + 1), JSON_TYPE));
    expect(huge.status).toBe(413);
    expect(ENVELOPES[api](JSON.parse(huge.body)), huge.body).toBe(true);
  });

  it("answers path traversal and header abuse without a 5xx, and cuts off a client that stalls", async () => {
    for (const path of TRAVERSALS) {
      const answer = await sendRaw(api, request(api, `GET ${path}`));
      expect(answer.status, `${path}: ${answer.head}`).toBeLessThan(500);
      expect(answer.body).not.toMatch(/root:|\bat .*\.(ts|js):\d+/);
    }
    for (const headers of HEADER_ABUSE) {
      const answer = await sendRaw(api, request(api, `POST ${WRITE_PATHS[api]}`, "{}", headers));
      expect(answer.status ?? 400, `${headers.slice(0, 60)}: ${answer.head}`).toBeLessThan(500);
    }
    // A body shorter than its Content-Length, and headers that never end: cut off by the request timeout.
    const stalled = await Promise.all([
      sendRaw(api, request(api, `POST ${WRITE_PATHS[api]}`, "{}", "Content-Length: 100\r\n")),
      sendRaw(api, `POST ${WRITE_PATHS[api]} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n`),
    ]);
    for (const answer of stalled) {
      expect(answer.ms).toBeLessThan(HANG_LIMIT_MS);
      expect(answer.status ?? 408).toBe(408);
    }
  });

  it("logs an aborted upload in one line, not a stack trace", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await sendRaw(api, request(api, `POST ${WRITE_PATHS[api]}`, "{", `${JSON_TYPE}Content-Length: 1000\r\n`), {
        abortAfterMs: 100,
      });
      await vi.waitFor(() => expect(log).toHaveBeenCalled());
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(log).toHaveBeenCalledTimes(1);
      const line = log.mock.calls[0]!.map(String).join(" ");
      expect(line).toMatch(/the body did not arrive whole/);
      expect(line).not.toMatch(/\n\s+at /);
    } finally {
      log.mockRestore();
    }
  });
});

it("random bytes as bodies and header values never get a 5xx or hang, and valid requests are answered after all", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...APIS),
      fc.uint8Array({ maxLength: 600 }),
      fc.stringMatching(/^[\x20-\x7e\x80-\xff]{0,80}$/),
      async (api, body, value) => {
        const answer = await sendRaw(
          api,
          request(api, `POST ${WRITE_PATHS[api]}`, Buffer.from(body), `${JSON_TYPE}X-Fuzz: ${value}\r\n`),
        );
        expect(answer.status ?? 400).toBeLessThan(500);
      },
    ),
    { numRuns: 80 },
  );
  const clients = clientsFor(sandbox.urls, sandbox.fetch);
  expect((await clients.links().GET("/api/account")).response.status).toBe(200);
  expect((await clients.catalog().GET("/admin/seller-api/me")).response.status).toBe(200);
  expect((await clients.pay().POST("/api/shops/", { body: {} })).response.status).toBe(200);
  expect((await sandbox.fetch(`${sandbox.urls.identity}${identityRoutes().discovery}`)).status).toBe(200);
});
