// A connection closed under a request before any response: on a busy machine a kept-alive connection can be closed
// by the server just as the runner sends on it. An idempotent request is sent once more on a new connection (RFC 9110
// §9.2.2); a POST is never sent twice, and goes on a new connection, which cannot have been closed as idle; a server
// that resets again is reported.
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

/**
 * A raw server that answers the first request of each connection and keeps it alive (`Keep-Alive: timeout=5`), then
 * resets the connection when a second request arrives on it: the moment a server closes an idle connection as the
 * client sends, made certain instead of left to a busy machine's timing.
 */
async function closesKeptAliveConnections() {
  const requests: Array<{ line: string; connection: number; nth: number }> = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket: Socket) => {
    sockets.add(socket);
    const connection = sockets.size;
    let nth = 0;
    socket.on("data", (data) => {
      nth += 1;
      requests.push({ line: data.toString("latin1").split("\r\n")[0]!, connection, nth });
      if (nth > 1) return void socket.resetAndDestroy();
      socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n");
      socket.write("Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/things`;
  const close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, requests, close };
}

describe("a kept-alive connection the server closes as the next request arrives", () => {
  it("a POST after a GET goes on a new connection and gets its answer", async ({ onTestFinished }) => {
    const server = await closesKeptAliveConnections();
    onTestFinished(server.close);
    const transport = new Transport({ timeoutMs: 5000 });
    const read = await transport.send({ method: "GET", url: server.url, headers: {} });
    expect(read.response?.status).toBe(200);
    // Until the response has been taken in, the pool would open a second connection anyway; then the first is idle.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const write = await transport.send({
      method: "POST",
      url: server.url,
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(write.error).toBeUndefined();
    expect(write.response?.status).toBe(200);
    expect(server.requests.filter((r) => r.line.startsWith("POST"))).toEqual([
      { line: "POST /things HTTP/1.1", connection: 2, nth: 1 },
    ]);
  });
});

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
