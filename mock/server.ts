// The HTTP side of one Prism mock: what @stoplight/prism-http-server does for `prism mock` (CORS, reading the
// body, `Prefer`, the `sl-violations` header), on Prism's own pieces (createInstance, getHttpConfigFromRequest,
// serialize, micri's body readers), except for what Prism answers outside an operation. Prism's server parses the
// body before any of its components runs (micri answers `{"error":{"code":"invalid_json",...}}`) and writes route
// and mocker errors as problem+json itself, with no hook for either: here they get the API's own error envelope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type ApiName, loadContract, type OperationInfo } from "../lib/contract/index.js";
import type {
  MockConfig,
  PrismConfig,
  PrismInstance,
  PrismLogger,
  PrismPackages,
  PrismRequest,
  PrismResult,
  PrismViolation,
  ProblemJsonError,
} from "./prism-types.js";
import { withLiveValues } from "./live-values.js";
import { errorBody } from "./refusals.js";
import { DEFAULT_MAX_BODY_BYTES, tooLargeMessage } from "./sandbox/http.js";

const SEVERITY_NAMES = ["Error", "Warning", "Information", "Hint"]; // DiagnosticSeverity of @stoplight/types
const MAX_SAFE_HEADER_LENGTH = 8 * 1024 - 100; // as prism-http-server
/** The sandbox's limit (prism-http-server's is 10 MB): a body over it gets the same 413 from both. */
const BODY_LIMIT = DEFAULT_MAX_BODY_BYTES;

export interface MockServerOptions {
  api: ApiName;
  prism: PrismPackages;
  instance: PrismInstance;
  operations: unknown[];
  config: PrismConfig;
  logger: PrismLogger;
}

/** A refusal the mock makes itself: status, a message for the envelope, extra headers. */
interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export function createMockServer(options: MockServerOptions): Server {
  return createServer((request, reply) => {
    handle(options, request, reply).catch((error: unknown) => {
      options.logger.error({}, `Request terminated with error: ${String(error)}`);
      if (!reply.headersSent)
        refuse(options.api, request, reply, { status: 500, message: (error as Error).message ?? String(error) });
      else reply.end();
    });
  });
}

function setCorsHeaders(request: IncomingMessage, reply: ServerResponse): void {
  reply.setHeader("Access-Control-Allow-Origin", request.headers.origin || "*");
  reply.setHeader("Access-Control-Allow-Headers", request.headers["access-control-request-headers"] || "*");
  reply.setHeader("Access-Control-Allow-Credentials", "true");
  reply.setHeader("Access-Control-Expose-Headers", request.headers["access-control-expose-headers"] || "*");
}

async function handle(options: MockServerOptions, request: IncomingMessage, reply: ServerResponse): Promise<void> {
  const { api, prism, logger } = options;
  setCorsHeaders(request, reply);
  const method = (request.method ?? "GET").toLowerCase();
  if (method === "options" && request.headers.origin && request.headers["access-control-request-method"]) {
    reply.setHeader("Access-Control-Allow-Methods", request.headers["access-control-request-method"]);
    reply.setHeader("Vary", "origin");
    reply.writeHead(204, { "Content-Length": "0" }).end();
    return;
  }
  // A method the path does not have is refused before its body is read, as the sandbox does: a malformed body sent
  // to a GET-only path is a 405 (with Allow), not a 400 about the body.
  const requested = new URL(request.url ?? "/", "http://mock").pathname;
  const allowed: string[] = loadContract(api).allowedMethods(requested);
  const known = allowed.includes(method) || (method === "head" && allowed.includes("get")) || method === "options";
  if (allowed.length > 0 && !known) {
    request.resume();
    const allow = allowed.map((m) => m.toUpperCase()).join(", ");
    const pathname = requested;
    refuse(api, request, reply, {
      status: 405,
      message: `no operation ${method.toUpperCase()} ${pathname} in the ${api} contract; ${pathname} has ${allow}`,
      headers: { Allow: allow },
    });
    return;
  }
  let body: unknown;
  try {
    body = await readBody(prism, request);
  } catch (error) {
    const refusal = bodyRefusal(error);
    if (!refusal) throw error;
    // micri stops reading at the limit; the rest is read and dropped, so that the client reads the refusal rather
    // than a reset of a connection closed with its body still arriving.
    request.resume();
    refuse(api, request, reply, refusal);
    return;
  }
  const { searchParams, pathname } = new URL(request.url ?? "/", "http://mock");
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(searchParams.keys())) {
    const values = searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  const input: PrismRequest = {
    method,
    url: { path: pathname, baseUrl: searchParams.get("__server") ?? undefined, query },
    headers: request.headers,
    body,
  };
  logger.info({ input }, "Request received");
  const preferences = prism.getHttpConfigFromRequest(input);
  if (preferences._tag === "Left") {
    refuse(api, request, reply, {
      status: preferences.left.status ?? 422,
      message: `the mock cannot read the Prefer header (or __code, __example, ...): ${preferences.left.detail ?? preferences.left.message}`,
    });
    return;
  }
  const mock: MockConfig = { ...options.config.mock, ...withoutUndefined(preferences.right) };
  const outcome = await options.instance.request(input, options.operations, { ...options.config, mock })();
  if (outcome._tag === "Left") {
    logger.error({ input }, `Request terminated with error: ${outcome.left}`);
    refuse(api, request, reply, problemRefusal(api, method, pathname, outcome.left));
    return;
  }
  send(prism, reply, { ...outcome.right, output: withLiveValues(api, outcome.right.output) }, logger);
}

/** The body as prism-http-server reads it: none without a length, JSON for JSON media types, text otherwise. */
function readBody(prism: PrismPackages, request: IncomingMessage): Promise<unknown> {
  const { headers } = request;
  if (
    headers["content-length"] === "0" ||
    (headers["transfer-encoding"] === undefined && headers["content-length"] === undefined)
  )
    return Promise.resolve(null);
  const mediaType = (headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const json = mediaType === "application/json" || /^application\/[^/]+\+json$/.test(mediaType);
  const limit = `${BODY_LIMIT}b`; // micri reads the limit as a size in words
  return json ? prism.readJson(request, { limit }) : prism.readText(request, { limit });
}

/** micri's refusal of a body (not JSON, too large, ...), which carries its status and code. */
function bodyRefusal(error: unknown): Refusal | undefined {
  const { statusCode, code, message, originalError } = error as {
    statusCode?: unknown;
    code?: unknown;
    message?: string;
    originalError?: Error;
  };
  if (typeof statusCode !== "number") return undefined;
  const reason =
    code === "invalid_json"
      ? `the request body is not valid JSON (${originalError?.message ?? message})`
      : statusCode === 413
        ? tooLargeMessage(BODY_LIMIT)
        : `the request body could not be read: ${message}`;
  return { status: statusCode, message: reason };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Prism's answer, with its violations in `sl-violations` and in the log, as prism-http-server writes them. */
function send(
  prism: PrismPackages,
  reply: ServerResponse,
  { output, validations }: PrismResult,
  logger: PrismLogger,
): void {
  const located = (prefix: string) => (v: PrismViolation) => ({
    location: [prefix, ...(v.path ?? [])],
    severity: SEVERITY_NAMES[v.severity],
    code: v.code,
    message: v.message,
  });
  const violations = [...validations.input.map(located("request")), ...validations.output.map(located("response"))];
  if (violations.length > 0) {
    const value = JSON.stringify(violations);
    reply.setHeader(
      "sl-violations",
      value.length > MAX_SAFE_HEADER_LENGTH
        ? `Too many violations! ${value.substring(0, MAX_SAFE_HEADER_LENGTH)}`
        : value,
    );
  }
  for (const violation of violations) {
    const line = `Violation: ${violation.location.join(".")} ${violation.message}`;
    if (violation.severity === "Error") logger.error({ name: "VALIDATOR" }, line);
    else if (violation.severity === "Warning") logger.warn({ name: "VALIDATOR" }, line);
    else logger.info({ name: "VALIDATOR" }, line);
  }
  for (const [name, value] of Object.entries(output.headers ?? {})) {
    if (value !== undefined && value !== null) reply.setHeader(name, value as string | number | string[]);
  }
  const contentType = reply.getHeader("content-type");
  const payload = prism.serialize(output.body, typeof contentType === "string" ? contentType : undefined);
  reply.statusCode = output.statusCode;
  if (payload === undefined) {
    reply.end();
    return;
  }
  if (!reply.hasHeader("content-type")) reply.setHeader("Content-Type", "text/plain; charset=utf-8");
  reply.setHeader("Content-Length", Buffer.byteLength(payload));
  reply.end(payload);
}

/** What a route or mocker error of Prism's says, in words about this API's contract, with Prism's status. */
function problemRefusal(api: ApiName, method: string, pathname: string, problem: ProblemJsonError): Refusal {
  const status = problem.status ?? 500;
  const type = problem.name.split("#")[1];
  const request = `${method.toUpperCase()} ${pathname}`;
  if (type === "NO_PATH_MATCHED_ERROR") return { status, message: `no operation ${request} in the ${api} contract` };
  if (type === "NO_METHOD_MATCHED_ERROR") {
    // RFC 9110 §15.5.6: a 405 lists the methods the resource has in Allow.
    const allow = loadContract(api)
      .allowedMethods(pathname)
      .map((m) => m.toUpperCase())
      .join(", ");
    // Prism's router and the contract's agree on paths; should they not, the 405 still names the request.
    if (!allow) return { status, message: `no operation ${request} in the ${api} contract` };
    return {
      status,
      message: `no operation ${request} in the ${api} contract; ${pathname} has ${allow}`,
      headers: { Allow: allow },
    };
  }
  const message = problem.detail ? problem.detail : problem.message;
  return { status, message, headers: problem.additional?.headers };
}

/**
 * Answers with the API's own error envelope (read from the contract by errorBody: the operation's documented
 * error response for the status, else any of the API's) holding `refusal.message`; an API that documents no JSON
 * error body gets Prism's problem+json with the message as its detail.
 */
function refuse(api: ApiName, request: IncomingMessage, reply: ServerResponse, refusal: Refusal): void {
  const contract = loadContract(api);
  const pathname = new URL(request.url ?? "/", "http://mock").pathname;
  const routed = contract.route(request.method ?? "GET", pathname)?.operation;
  // A wrong method takes the envelope of the operations at that path.
  const atPath = contract.allowedMethods(pathname).flatMap((m) => contract.route(m, pathname)?.operation ?? []);
  const operations: OperationInfo[] = routed ? [routed] : atPath;
  // What the mock refuses here is a malformed request in RFC 6749 §5.2's (and RFC 6750 §3.1's) terms: an envelope
  // with codes takes its invalid_request example.
  const found = errorBody(api, operations, refusal.status, refusal.message, {
    codes: ["invalid_request"],
    anywhere: true,
  });
  const [contentType, text] = found
    ? [found.mediaType, JSON.stringify(found.body)]
    : [
        "application/problem+json",
        JSON.stringify({
          type: "about:blank",
          title: refusal.message,
          status: refusal.status,
          detail: refusal.message,
        }),
      ];
  reply
    .writeHead(refusal.status, {
      ...refusal.headers,
      "Content-Type": contentType,
      "Content-Length": Buffer.byteLength(text),
    })
    .end(text);
}
