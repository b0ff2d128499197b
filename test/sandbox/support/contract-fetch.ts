// A fetch that checks every response of a contract path against the contract (documented status, required
// headers and their schemas, media type, body schema) and throws on any violation, so a sandbox test fails the
// moment the sandbox drifts from the specs. Paths outside the contracts (/_sandbox/..., /interaction/...) pass.
import { ContractRouter } from "../../../mock/sandbox/contract.js";
import { type ApiName, describeErrors, type Operation, pointerSegment, resolvePointer, validateAt } from "../../../lib/openapi.js";

export class ContractViolation extends Error {
  override readonly name = "ContractViolation";
}

export type CheckedFetch = typeof fetch & {
  /** How many responses were checked against an operation of the contract. */
  readonly checked: number;
};

const routers = new Map<ApiName, ContractRouter>();
function routerFor(api: ApiName): ContractRouter {
  let router = routers.get(api);
  if (!router) routers.set(api, (router = new ContractRouter(api)));
  return router;
}

function coerceHeader(schema: { type?: string }, value: string): unknown {
  return schema.type === "integer" || schema.type === "number" ? Number(value) : value;
}

/** Everything about `response` that the operation's documented responses do not allow. */
export function responseViolations(api: ApiName, op: Operation, status: number, headers: Headers, text: string): string[] {
  const responses = op.operation.responses as Record<string, unknown>;
  const key = [String(status), `${String(status)[0]}XX`, "default"].find((candidate) => candidate in responses);
  if (key === undefined) return [`status ${status} is not documented`];
  const pointer = `${op.pointer}/responses/${key}`;
  const documented = resolvePointer(api, pointer);
  const problems: string[] = [];
  for (const name of Object.keys(documented.headers ?? {})) {
    const headerPointer = `${pointer}/headers/${pointerSegment(name)}`;
    const header = resolvePointer(api, headerPointer);
    const value = headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`required header ${name} is missing`);
      continue;
    }
    const result = validateAt(api, `${headerPointer}/schema`, coerceHeader(resolvePointer(api, `${headerPointer}/schema`), value));
    if (!result.valid) problems.push(`header ${name}: ${describeErrors(result.errors)}`);
  }
  const mediaTypes = Object.keys(documented.content ?? {});
  if (mediaTypes.length === 0) return problems;
  const mediaType = (headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (!mediaTypes.includes(mediaType)) return [...problems, `content type "${mediaType}" is not one of ${mediaTypes.join(", ")}`];
  let body: unknown = text;
  if (mediaType.endsWith("json")) {
    try {
      body = JSON.parse(text);
    } catch {
      return [...problems, `the body is not JSON: ${text.slice(0, 200)}`];
    }
  }
  const result = validateAt(api, `${pointer}/content/${pointerSegment(mediaType)}/schema`, body);
  if (!result.valid) problems.push(`body: ${describeErrors(result.errors)}`);
  return problems;
}

/** A fetch for the sandbox at `bases` (API → base URL) that validates every contract response it receives. */
export function contractFetch(bases: Partial<Record<ApiName, string>>, inner: typeof fetch = (input, init) => fetch(input, init)): CheckedFetch {
  const apiByOrigin = new Map(Object.entries(bases).map(([api, base]) => [new URL(base).origin, api as ApiName]));
  let checked = 0;
  const checkedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const response = await inner(request);
    const url = new URL(request.url);
    const api = apiByOrigin.get(url.origin);
    const found = api && routerFor(api).match(request.method, url.pathname);
    if (!api || !found || "allowed" in found) return response;
    const problems = responseViolations(api, found.route.op, response.status, response.headers, await response.clone().text());
    checked += 1;
    if (problems.length > 0) {
      throw new ContractViolation(`${request.method} ${url.pathname} → ${response.status} breaks ${api} ${found.route.op.operationId}: ${problems.join("; ")}`);
    }
    return response;
  };
  return Object.defineProperty(checkedFetch, "checked", { get: () => checked }) as CheckedFetch;
}
