// The little HTTP plumbing the independent servers share: a loopback node:http server that reads the whole body,
// hands the request to a handler and writes its JSON answer. No contract file is read here.
import type { IncomingMessage } from "node:http";
import { type Answer, listenOnLoopback } from "../fault-servers/loopback.js";
import type { RunningServer } from "../fault-servers/http.js";

export interface OracleRequest {
  method: string;
  url: URL;
  headers: IncomingMessage["headers"];
  text: string;
  /** The JSON body when it parses to an object; `undefined` otherwise. */
  json: Record<string, unknown> | undefined;
}

export interface OracleReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export async function serveOracle(
  port: number,
  secretsSeen: Set<string>,
  handle: (request: OracleRequest) => OracleReply | Promise<OracleReply>,
): Promise<RunningServer> {
  const log: RunningServer["log"] = [];
  const answer: Answer = async (request, response) => {
    log.push({ at: Date.now(), method: request.method ?? "GET", url: request.url ?? "/" });
    let text = "";
    for await (const chunk of request) text += chunk;
    let json: Record<string, unknown> | undefined;
    try {
      const parsed = text ? (JSON.parse(text) as unknown) : undefined;
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
        json = parsed as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    const reply = await handle({
      method: request.method ?? "GET",
      url: new URL(request.url ?? "/", "http://localhost"),
      headers: request.headers,
      text,
      json,
    });
    response.writeHead(reply.status, { "Content-Type": "application/json", ...reply.headers });
    response.end(JSON.stringify(reply.body));
  };
  return listenOnLoopback(answer, port, log, secretsSeen);
}
