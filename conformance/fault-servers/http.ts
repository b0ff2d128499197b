// Plumbing of the fault servers: a node:http server on loopback that finds the contract's operation for each
// request (lib/contract's router), parses and validates it with the contract's own validators, counts requests, and
// hands it to a handler.
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Answer, listenOnLoopback } from "./loopback.js";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import { operationModel, validateCase } from "../plan/cases.js";
import { type OperationModel, type RequestCase } from "../model/cases.js";
import { operationOf } from "../contract/lookup.js";

export interface IncomingCall {
  operationId: string;
  model: OperationModel;
  method: string;
  path: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  rawBody: string;
  /** The parsed body when it is a JSON object or a form; `undefined` otherwise (the case is then invalid). */
  body: Record<string, unknown> | undefined;
  /** Why the request breaks the contract, if it does. */
  invalid?: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** Sent as is instead of JSON. */
  text?: string;
  headers?: Record<string, string>;
}

export type Handler = (call: IncomingCall) => Reply | Promise<Reply>;

export interface RunningServer {
  url: string;
  port: number;
  /** Every request received, in order, with its arrival time. */
  log: Array<{ at: number; method: string; url: string }>;
  /**
   * Secrets this server accepted or issued (keys, valid signatures, codes, tokens), for the tests that prove no output
   * shows one.
   */
  secretsSeen: Set<string>;
  close(): Promise<void>;
}

const models = new Map<string, OperationModel>();

function modelOf(api: ApiName, operationId: string): OperationModel {
  const key = `${api} ${operationId}`;
  let model = models.get(key);
  if (!model) models.set(key, (model = operationModel(operationOf(api, operationId))));
  return model;
}

async function readBody(request: IncomingMessage, limit = 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Parses a request into the contract's terms and validates it as the runner does. */
export async function readCall(api: ApiName, request: IncomingMessage): Promise<IncomingCall | undefined> {
  const url = new URL(request.url ?? "/", "http://localhost");
  const method = (request.method ?? "GET").toLowerCase();
  const match = loadContract(api).route(method, url.pathname);
  if (match) {
    const route = { model: modelOf(api, match.operation.operationId) };
    const path = match.pathParams;
    const rawBody = await readBody(request);
    const contentType = (request.headers["content-type"] ?? "").split(";")[0]!.trim();
    let body: unknown;
    let malformed = false;
    if (rawBody.length > 0) {
      if (contentType === "application/x-www-form-urlencoded") body = Object.fromEntries(new URLSearchParams(rawBody));
      else {
        try {
          body = JSON.parse(rawBody);
        } catch {
          malformed = true;
        }
      }
    }
    const requestCase: RequestCase = {
      origin: "example",
      label: "incoming",
      path: { ...path },
      query: Object.fromEntries(url.searchParams),
      headers: {},
    };
    for (const parameter of route.model.parameters) {
      if (parameter.in !== "header") continue;
      const value = request.headers[parameter.name.toLowerCase()];
      if (typeof value === "string") requestCase.headers[parameter.name] = value;
    }
    if (malformed) requestCase.rawBody = rawBody;
    else if (body === undefined) requestCase.noBody = true;
    else requestCase.body = body;
    const validation = validateCase(route.model, requestCase);
    return {
      operationId: route.model.op.operationId,
      model: route.model,
      method,
      path,
      query: url.searchParams,
      headers: request.headers,
      rawBody,
      body:
        body !== null && typeof body === "object" && !Array.isArray(body)
          ? (body as Record<string, unknown>)
          : undefined,
      ...(validation.valid ? {} : { invalid: validation.reason }),
    };
  }
  return undefined;
}

/** Starts a server on 127.0.0.1 (port 0 = any free port). `handle` gets every request, matched or not. */
export async function startServer(
  port: number,
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<Reply>,
  secretsSeen = new Set<string>(),
): Promise<RunningServer> {
  const log: RunningServer["log"] = [];
  const answer: Answer = async (request, response) => {
    log.push({ at: Date.now(), method: request.method ?? "GET", url: request.url ?? "/" });
    let reply: Reply;
    try {
      reply = await handle(request, response);
    } catch (error) {
      reply = { status: 400, body: { error: `unreadable request: ${(error as Error).message}` } };
    }
    if (response.headersSent) return;
    const headers: Record<string, string> = { ...reply.headers };
    let payload = "";
    if (reply.text !== undefined) payload = reply.text;
    else if (reply.body !== undefined) {
      payload = JSON.stringify(reply.body);
      headers["Content-Type"] ??= "application/json";
    }
    response.writeHead(reply.status, headers);
    response.end(payload);
  };
  return listenOnLoopback(answer, port, log, secretsSeen);
}
