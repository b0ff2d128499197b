// Routing and request validation straight from the bundled contracts: every path, parameter, header and body
// schema the sandbox accepts is the contract's own (compiled Ajv validators from lib/openapi.ts).
import type { ErrorObject, ValidateFunction } from "ajv";
import { type ApiName, describeErrors, listOperations, type Operation, pointerSegment, resolvePointer, schemaValidator } from "../../lib/openapi.js";
import { mediaTypeOf, parseForm, type SandboxRequest } from "./http.js";

interface ParameterCheck {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  type: string | undefined;
  validate: ValidateFunction;
}

export interface ContractRoute {
  op: Operation;
  pattern: RegExp;
  pathParamNames: string[];
  parameters: ParameterCheck[];
  body: { required: boolean; validators: Map<string, ValidateFunction> } | undefined;
}

export interface RouteMatch {
  route: ContractRoute;
  pathParams: Record<string, string>;
}

/** The operations of one API, matched by method and concrete path. */
export class ContractRouter {
  readonly routes: ContractRoute[];

  constructor(readonly api: ApiName) {
    this.routes = listOperations(api)
      .filter((op) => !op.webhook)
      .map((op) => compileRoute(api, op));
  }

  /** The matching operation, `{ allowed }` when the path exists with other methods, or undefined. */
  match(method: string, pathname: string): RouteMatch | { allowed: string[] } | undefined {
    const allowed: string[] = [];
    for (const route of this.routes) {
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      if (route.op.method !== method.toLowerCase()) {
        allowed.push(route.op.method.toUpperCase());
        continue;
      }
      const pathParams: Record<string, string> = {};
      route.pathParamNames.forEach((name, index) => (pathParams[name] = found[index + 1]!));
      return { route, pathParams };
    }
    return allowed.length > 0 ? { allowed } : undefined;
  }
}

function compileRoute(api: ApiName, op: Operation): ContractRoute {
  const pathParamNames: string[] = [];
  const source = op.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
      pathParamNames.push(name);
      return "([^/]+)";
    })
    .join("");
  const parameters = ((op.operation.parameters ?? []) as unknown[]).map((_, index) => {
    const pointer = `${op.pointer}/parameters/${index}`;
    const parameter = resolvePointer(api, pointer);
    return {
      name: parameter.name,
      in: parameter.in,
      required: Boolean(parameter.required),
      type: resolvePointer(api, `${pointer}/schema`).type,
      validate: schemaValidator(api, `${pointer}/schema`),
    } satisfies ParameterCheck;
  });
  let body: ContractRoute["body"];
  if (op.operation.requestBody) {
    const requestBody = resolvePointer(api, `${op.pointer}/requestBody`);
    const validators = new Map<string, ValidateFunction>();
    for (const mediaType of Object.keys(requestBody.content ?? {})) {
      validators.set(mediaType, schemaValidator(api, `${op.pointer}/requestBody/content/${pointerSegment(mediaType)}/schema`));
    }
    body = { required: Boolean(requestBody.required), validators };
  }
  return { op, pattern: new RegExp(`^${source}$`), pathParamNames, parameters, body };
}

export type RequestCheck =
  | { ok: true; params: Record<string, unknown>; body: unknown }
  | { ok: false; status: number; message: string };

/**
 * Checks a request against its operation: parameters (coerced to their schema type first, as they arrive as
 * text), the media type and the body. Returns the coerced parameters and the parsed body, or why it was refused.
 */
export function checkRequest(match: RouteMatch, request: SandboxRequest): RequestCheck {
  const params: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const parameter of match.route.parameters) {
    let raw: string | null | undefined;
    if (parameter.in === "path") raw = safeDecode(match.pathParams[parameter.name]);
    else if (parameter.in === "query") raw = request.url.searchParams.get(parameter.name);
    else if (parameter.in === "header") raw = request.headers.get(parameter.name);
    if (raw === null || raw === undefined) {
      if (parameter.required) problems.push(`${parameter.in} parameter ${parameter.name} is required`);
      continue;
    }
    const value = coerce(raw, parameter.type);
    if (!parameter.validate(value)) problems.push(explain(parameter.validate.errors, `${parameter.in} parameter ${parameter.name}`));
    params[parameter.name] = value;
  }
  if (problems.length > 0) return { ok: false, status: 400, message: problems.join("; ") };

  const spec = match.route.body;
  if (!spec) return { ok: true, params, body: undefined };
  if (request.body.byteLength === 0) {
    return spec.required ? { ok: false, status: 400, message: "a request body is required" } : { ok: true, params, body: undefined };
  }
  const mediaType = mediaTypeOf(request.headers.get("content-type"));
  const validate = spec.validators.get(mediaType);
  if (!validate) {
    const expected = [...spec.validators.keys()].join(" or ");
    return { ok: false, status: 415, message: `Content-Type must be ${expected}, got ${mediaType || "none"}` };
  }
  let body: unknown;
  if (mediaType === "application/x-www-form-urlencoded") {
    body = parseForm(request.body);
  } else {
    try {
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(request.body));
    } catch (error) {
      return { ok: false, status: 400, message: `the body is not valid JSON (${(error as Error).message})` };
    }
  }
  if (!validate(body)) return { ok: false, status: 400, message: explain(validate.errors, "body") };
  return { ok: true, params, body };
}

/** Ajv errors as one line about `subject` (e.g. "body"), naming the offending property where Ajv's message does not. */
function explain(errors: ErrorObject[] | null | undefined, subject: string): string {
  const named = (errors ?? []).map((error) => {
    const property = (error.params as { additionalProperty?: string }).additionalProperty;
    const message = property === undefined ? error.message : `must NOT have the additional property "${property}"`;
    return { ...error, instancePath: `${subject}${error.instancePath}`, message };
  });
  return describeErrors(named);
}

function safeDecode(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function coerce(raw: string, type: string | undefined): unknown {
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

export type Routing = { ok: true; match: RouteMatch } | { ok: false; status: number; message: string; headers: Record<string, string> };

/** Finds the operation of a request: 404 for a path the contract does not have, 405 (with Allow) for a wrong method. */
export function routeRequest(router: ContractRouter, request: SandboxRequest): Routing {
  const found = router.match(request.method, request.url.pathname);
  if (found === undefined) return { ok: false, status: 404, message: `no ${router.api} endpoint at ${request.url.pathname}`, headers: {} };
  if ("allowed" in found) {
    const allow = found.allowed.join(", ");
    return { ok: false, status: 405, message: `${request.method} is not allowed on ${request.url.pathname}; use ${allow}`, headers: { allow } };
  }
  return { ok: true, match: found };
}

/** Fails loudly at start-up when the contract has an operation the sandbox does not implement. */
export function assertImplemented(router: ContractRouter, operationIds: Iterable<string>): void {
  const implemented = new Set(operationIds);
  const missing = router.routes.map((route) => route.op.operationId).filter((id) => !implemented.has(id));
  if (missing.length > 0) throw new Error(`the ${router.api} sandbox does not implement ${missing.join(", ")}`);
}
