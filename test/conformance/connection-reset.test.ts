// A connection closed under a request before any response: on a busy machine a kept-alive connection can be closed
// by the server just as the runner sends on it. An idempotent request is sent once more on a new connection (RFC 9110
// §9.2.2); a POST is never sent twice; a server that resets again is reported.
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { Transport } from "../../conformance/send/transport.js";

/** A raw server that resets the first `resets` connections once a request arrives, then answers 200. */
async function resettingServer(resets: number) {
  const requests: string[] = [];
  const server = createServer((socket: Socket) => {
    socket.once("data", (data) => {
      requests.push(data.toString("latin1").split("\r\n")[0]!);
      if (requests.length <= resets) return void socket.resetAndDestroy();
      socket.end(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/things`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("a connection reset before the response", () => {
  it("an idempotent request is sent once more and gets its answer", async ({ onTestFinished }) => {
    const server = await resettingServer(1);
    onTestFinished(server.close);
    const exchange = await new Transport({ timeoutMs: 5000 }).send({ method: "GET", url: server.url, headers: {} });
    expect(exchange.error).toBeUndefined();
    expect(exchange.response?.status).toBe(200);
    expect(server.requests).toEqual(["GET /things HTTP/1.1", "GET /things HTTP/1.1"]);
  });

  it("a POST is not sent twice: the reset is what the run reports", async ({ onTestFinished }) => {
    const server = await resettingServer(1);
    onTestFinished(server.close);
    const exchange = await new Transport({ timeoutMs: 5000 }).send({
      method: "POST",
      url: server.url,
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(exchange.error).toBe("ECONNRESET");
    expect(server.requests).toEqual(["POST /things HTTP/1.1"]);
  });

  it("a server that resets again is reported, after one retry", async ({ onTestFinished }) => {
    const server = await resettingServer(5);
    onTestFinished(server.close);
    const exchange = await new Transport({ timeoutMs: 5000 }).send({ method: "GET", url: server.url, headers: {} });
    expect(exchange.error).toBe("ECONNRESET");
    expect(server.requests).toHaveLength(2);
  });
});
