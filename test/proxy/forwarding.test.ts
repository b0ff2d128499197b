// The proxy's forwarding, on real HTTP over loopback against a server written here that shows exactly what reached
// it: requests and responses pass unchanged (status line, header case, order and repetition, body bytes), hop-by-hop
// fields stop at the proxy (RFC 9110 §7.6.1), bodies stream through without being held, a copy of at most
// --max-body bytes is judged, and an exchange reaches the judge only after its response has reached the client.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningProxy, startRecordingProxy } from "../../conformance/proxy/forward.js";
import type { ProxiedExchange } from "../../conformance/proxy/recording.js";

type Seen = { method: string; url: string; rawHeaders: string[]; body: Buffer };
type Answer = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

const seen: Seen[] = [];
let answer: Answer = (_req, res) => res.end();
const origin: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const entry = { method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) };
    seen.push(entry);
    answer(req, res, entry);
  });
});
await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;

const exchanges: ProxiedExchange[] = [];
const MAX_BODY = 64 * 1024;
const proxy: RunningProxy = await startRecordingProxy({
  target: new URL(originUrl),
  host: "127.0.0.1",
  port: 0,
  maxBodyBytes: MAX_BODY,
  onExchange: (exchange) => exchanges.push(exchange),
});

afterAll(async () => {
  await proxy.stop(100);
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
});

interface Received {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

/** One request with node:http (raw headers as written), the whole response as it arrived. */
function send(base: string, path: string, method: string, headers: string[], body?: Buffer): Promise<Received> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const raw = ["Host", url.host, ...headers];
    const req = request({ host: url.hostname, port: url.port, path, method, headers: raw, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          statusMessage: res.statusMessage!,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Raw headers without the fields of one connection, which each hop sets for itself. */
const endToEnd = (raw: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (!/^(connection|keep-alive|transfer-encoding|host)$/i.test(raw[i]!)) out.push(raw[i]!, raw[i + 1]!);
  return out;
};
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const nextExchange = async (count: number) => {
  for (let i = 0; i < 100 && exchanges.length < count; i++) await new Promise((r) => setTimeout(r, 20));
  return exchanges[count - 1]!;
};

describe("contracts proxy forwarding", () => {
  it("passes a request and its response on byte for byte, with headers as written", async () => {
    const payload = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    answer = (_req, res) => {
      res.sendDate = false;
      res.writeHead(207, "Quite Multi", [
        "X-Trace",
        "a",
        "x-trace",
        "b",
        "Set-Cookie",
        "sid=first; HttpOnly",
        "Set-Cookie",
        "theme=dark",
        "Content-Type",
        "application/octet-stream",
        "Content-Length",
        String(payload.length),
      ]);
      res.end(payload);
    };
    const headers = ["X-Custom", "One", "x-custom", "two", "Cookie", "a=1", "Content-Type", "application/json"];
    const body = Buffer.from('{"name":"Spring \\u00e9 sale","n":[1,2,3]}');
    const direct = await send(originUrl, "/api/campaign/add?x=1&x=2&y=%20", "POST", headers, body);
    const proxied = await send(proxy.url, "/api/campaign/add?x=1&x=2&y=%20", "POST", headers, body);

    expect(proxied.status).toBe(207);
    expect(proxied.statusMessage).toBe("Quite Multi");
    expect(endToEnd(proxied.rawHeaders)).toEqual(endToEnd(direct.rawHeaders));
    expect(sha(proxied.body)).toBe(sha(payload));
    const [atOrigin, viaProxy] = seen.slice(-2);
    expect(viaProxy!.method).toBe("POST");
    expect(viaProxy!.url).toBe(atOrigin!.url);
    expect(endToEnd(viaProxy!.rawHeaders)).toEqual(endToEnd(atOrigin!.rawHeaders));
    expect(viaProxy!.body.equals(body)).toBe(true);
    // The target is asked for by its own name, as a client of it would.
    expect(viaProxy!.rawHeaders[viaProxy!.rawHeaders.findIndex((h) => /^host$/i.test(h)) + 1]).toBe(
      new URL(originUrl).host,
    );

    const exchange = await nextExchange(1);
    expect(exchange.request).toMatchObject({ method: "POST", url: `${originUrl}/api/campaign/add?x=1&x=2&y=%20` });
    expect(exchange.request.headers["x-custom"]).toBe("One, two");
    expect(exchange.request.body).toBe(body.toString());
    expect(exchange.response).toMatchObject({ status: 207, setCookies: ["sid=first; HttpOnly", "theme=dark"] });
    // 300 000 bytes are more than --max-body: passed on whole, judged as too large, not kept.
    expect(exchange.response!.tooLarge).toBe(MAX_BODY);
    expect(exchange.response!.text).toBe("");
  });

  it("keeps hop-by-hop fields to their own connection (RFC 9110 §7.6.1), both ways", async () => {
    answer = (_req, res) =>
      res
        .writeHead(200, ["Connection", "X-Answer-Hop", "X-Answer-Hop", "1", "X-End", "2", "Content-Length", "2"])
        .end("ok");
    const received = await send(proxy.url, "/hop", "GET", [
      "Connection",
      "keep-alive, X-Hop",
      "X-Hop",
      "secret-of-this-hop",
      "Keep-Alive",
      "timeout=5",
      "TE",
      "trailers",
      "Proxy-Connection",
      "keep-alive",
      "Upgrade",
      "h2c",
      "X-End",
      "1",
    ]);
    const names = (raw: string[]) => raw.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    expect(names(seen.at(-1)!.rawHeaders)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(x-hop|keep-alive|te|proxy-connection|upgrade)$/)]),
    );
    expect(names(seen.at(-1)!.rawHeaders)).toContain("x-end");
    expect(names(received.rawHeaders)).not.toContain("x-answer-hop");
    expect(names(received.rawHeaders)).toContain("x-end");
    expect(received.body.toString()).toBe("ok");
  });

  it("streams: the client has the first bytes while the target is still writing, and uploads flow on", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    answer = (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.write("first part;");
      void released.then(() => res.end("second part"));
    };
    const count = exchanges.length;
    const firstChunk = await new Promise<string>((resolve, reject) => {
      const req = request(`${proxy.url}/stream`, (res) => {
        res.once("data", (chunk: Buffer) => resolve(chunk.toString()));
        res.on("end", () => undefined);
      });
      req.on("error", reject);
      req.end();
    });
    expect(firstChunk).toBe("first part;");
    // The exchange is not judged while its response is still passing.
    expect(exchanges.length).toBe(count);
    release();
    expect((await nextExchange(count + 1)).response!.text).toBe("first part;second part");

    const upload = Buffer.alloc(3 * 1024 * 1024, 7);
    answer = (_req, res, entry) => res.end(sha(entry.body));
    const sent = await send(proxy.url, "/upload", "PUT", ["Content-Type", "application/octet-stream"], upload);
    expect(sent.body.toString()).toBe(sha(upload));
    const uploaded = await nextExchange(count + 2);
    expect(uploaded.requestTooLarge).toBe(MAX_BODY);
    expect(uploaded.request.body).toBeUndefined();
  });

  it("judges a compressed body by its decoded text and passes the compressed bytes on", async () => {
    const json = JSON.stringify({ error: 0, data: { id: 7 } });
    const gzipped = gzipSync(json);
    answer = (_req, res) =>
      res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip" }).end(gzipped);
    const count = exchanges.length;
    const received = await send(proxy.url, "/api/account", "GET", ["Accept-Encoding", "gzip"]);
    expect(received.body.equals(gzipped)).toBe(true);
    const exchange = await nextExchange(count + 1);
    expect(exchange.response).toMatchObject({ isJson: true, json: { error: 0, data: { id: 7 } } });
    expect(exchange.unreadable).toBeUndefined();
  });

  it("answers 502 when the target does not answer, and records why", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const recorded: ProxiedExchange[] = [];
    const toNowhere = await startRecordingProxy({
      target: new URL(deadUrl),
      host: "127.0.0.1",
      port: 0,
      maxBodyBytes: MAX_BODY,
      onExchange: (exchange) => recorded.push(exchange),
    });
    try {
      const received = await send(toNowhere.url, "/api/account", "GET", []);
      expect(received.status).toBe(502);
      expect(received.body.toString()).toContain("ECONNREFUSED");
      await new Promise((r) => setTimeout(r, 50));
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({ error: "ECONNREFUSED" });
      expect(recorded[0]!.response).toBeUndefined();
    } finally {
      await toNowhere.stop(100);
    }
  });

  it("drops the target's side when the client goes away mid-response, and records the exchange as cut short", async () => {
    let targetClosed!: () => void;
    const closedAtTarget = new Promise<void>((resolve) => (targetClosed = resolve));
    answer = (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.write("partial");
      res.on("close", () => targetClosed());
    };
    const count = exchanges.length;
    await new Promise<void>((resolve) => {
      const req = request(`${proxy.url}/slow`, (res) =>
        res.once("data", () => {
          req.destroy();
          resolve();
        }),
      );
      req.on("error", () => undefined);
      req.end();
    });
    await closedAtTarget;
    const exchange = await nextExchange(count + 1);
    expect(exchange.error).toMatch(/client closed the connection/);
  });
});
