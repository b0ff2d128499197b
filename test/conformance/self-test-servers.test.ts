// The servers the runner is proven on (fault servers, independent oracles) run inside the test workers: a request
// they fail to answer must end as an HTTP exchange, never as an unhandled rejection that fails the whole test run
// (vitest counts it as an error outside any test). A client that breaks off its body, and a handler that throws.
import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startOracleLinksServer } from "../../conformance/oracle/links.js";
import { startOraclePayServer } from "../../conformance/oracle/pay.js";
import { serveOracle } from "../../conformance/oracle/serve.js";

const servers: RunningServer[] = [];
const rejections: unknown[] = [];
const noteRejection = (reason: unknown) => rejections.push(reason);
beforeEach(() => {
  rejections.length = 0;
  process.on("unhandledRejection", noteRejection);
});
afterEach(async () => {
  process.off("unhandledRejection", noteRejection);
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/**
 * Sends the head of a POST that announces 1000 bytes of body, then 10 of them, and resets the connection once the
 * server has the request. A request on a new connection, answered, then shows that the server has seen the reset.
 */
async function breakOffBody(server: RunningServer, path: string, headers: Record<string, string>): Promise<void> {
  const socket = connect(server.port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  const head = Object.entries({ ...headers, "Content-Type": "application/json", "Content-Length": "1000" })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n{"name": "`);
  while (!server.log.some((entry) => entry.url === path)) await new Promise((resolve) => setTimeout(resolve, 5));
  socket.resetAndDestroy();
  await fetch(`${server.url}/after-the-reset`, { headers });
  await new Promise((resolve) => setImmediate(resolve));
}

describe("a self-test server", () => {
  it("the independent links server: a body broken off half-way is no unhandled rejection", async () => {
    const server = await startOracleLinksServer({ token: FAULT_SERVER_CREDENTIALS.LINKS_TOKEN, windowMs: 1000 });
    servers.push(server);
    await breakOffBody(server, "/api/channel/add", {
      Authorization: `Bearer ${FAULT_SERVER_CREDENTIALS.LINKS_TOKEN}`,
    });
    expect(rejections).toEqual([]);
    expect(server.log.map((entry) => `${entry.method} ${entry.url}`)).toEqual([
      "POST /api/channel/add",
      "GET /after-the-reset",
    ]);
  });

  it("the independent pay server: a body broken off half-way is no unhandled rejection", async () => {
    const server = await startOraclePayServer({
      shopId: FAULT_SERVER_CREDENTIALS.PAY_SHOP_ID,
      secret: FAULT_SERVER_CREDENTIALS.PAY_SECRET,
    });
    servers.push(server);
    await breakOffBody(server, "/api/createOrder/", { Authorization: "Bearer 00" });
    expect(rejections).toEqual([]);
  });

  it("a handler that throws answers 500, which the runner reports, instead of leaving the client waiting", async () => {
    const server = await serveOracle(0, new Set(), () => {
      throw new Error("a bug in the server");
    });
    servers.push(server);
    const response = await fetch(`${server.url}/anything`, { signal: AbortSignal.timeout(5000) });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "the server failed: a bug in the server" });
    expect(rejections).toEqual([]);
  });
});
