// Listening on 127.0.0.1 for every self-test server, the fault servers and the independent oracles alike: only the
// request handling differs between them (and must, for the oracles), not how a server starts, reports its URL and
// stops. No contract file is read here.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningServer } from "./http.js";

/** Starts `server` on 127.0.0.1 (port 0 = any free port) and returns it as a RunningServer. */
export async function listenOnLoopback(
  server: Server,
  port: number,
  log: RunningServer["log"],
  secretsSeen: Set<string>,
): Promise<RunningServer> {
  // Node's default (5 s): undici keeps a connection for the server's Keep-Alive hint minus 2 s, so a hint of 1 s would
  // make every request open a new connection.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    log,
    secretsSeen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
