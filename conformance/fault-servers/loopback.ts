// Listening on 127.0.0.1 for every self-test server, the fault servers and the independent oracles alike: only the
// request handling differs between them (and must, for the oracles), not how a server starts, reports its URL and
// stops. No contract file is read here.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningServer } from "./http.js";

/** Answers one request; node:http does not wait for the promise it returns. */
export type Answer = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/**
 * Ends an exchange whose answer threw: a body the client broke off while it was read, or a bug in the server. A 500
 * tells the runner (not_a_server_error) where nothing was sent yet; otherwise the connection is dropped. Left to
 * node:http, the rejection would go unhandled in whatever process runs the server: a test worker fails its run.
 */
function endBroken(response: ServerResponse, error: unknown): void {
  if (response.headersSent) response.destroy();
  else
    response
      .writeHead(500, { "Content-Type": "application/json" })
      .end(JSON.stringify({ error: `the server failed: ${(error as Error).message}` }));
}

/** Starts a server that answers with `answer` on 127.0.0.1 (port 0 = any free port), as a RunningServer. */
export async function listenOnLoopback(
  answer: Answer,
  port: number,
  log: RunningServer["log"],
  secretsSeen: Set<string>,
): Promise<RunningServer> {
  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => endBroken(response, error));
  });
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
