// What a recorded request asks of the provider, read from the contract as an active run reads its own cases: a
// request the contract allows must be accepted ("valid"), one it forbids is judged by negative_data_rejection
// ("invalid", with where it breaks the contract, so that `x-provider-refuses` on that node is found), and one that
// carries none of the credentials a secured operation needs must be refused ("unauthenticated").
import {
  type ApiName,
  coerceForm,
  describeErrors,
  type JsonSchema,
  loadContract,
  mediaTypeOf,
  parseForm,
  readParameters,
} from "../../lib/contract/index.js";
import type { OperationModel, Violation } from "../model/cases.js";
import type { Expectation } from "../model/cases.js";
import { resolveAt, validateAt } from "../contract/lookup.js";
import { headerOf, type PreparedRequest } from "../apis.js";

export interface RequestJudgement {
  expectation: Expectation;
  /** Why the request is invalid (invalid requests only). */
  violation?: Violation;
  /** What kind of recorded case it is, for the coverage matrix and the failure's case line. */
  label: string;
}

interface SecurityScheme {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
}

/** Whether the request carries the credential one security scheme needs (a header, query parameter or cookie). */
function carries(request: PreparedRequest, scheme: SecurityScheme): boolean {
  if (scheme.type === "apiKey" && scheme.name) {
    if (scheme.in === "query") return new URL(request.url).searchParams.has(scheme.name);
    if (scheme.in === "cookie")
      return (headerOf(request, "cookie") ?? "").split(";").some((c) => c.trim().startsWith(`${scheme.name}=`));
    return Boolean(headerOf(request, scheme.name)?.trim());
  }
  const authorization = headerOf(request, "authorization")?.trim() ?? "";
  if (scheme.type === "http" && scheme.scheme)
    return authorization.toLowerCase().startsWith(`${scheme.scheme.toLowerCase()} `);
  // oauth2 and openIdConnect: a bearer token (RFC 6750 §2.1; a token in the form body is RFC 6750 §2.2).
  return /^bearer\s+\S/i.test(authorization) || /(^|&)access_token=/.test(request.body ?? "");
}

/** Whether an operation needs credentials and the request carries none of the alternatives the contract allows. */
export function lacksCredentials(api: ApiName, model: OperationModel, request: PreparedRequest): boolean {
  const document = loadContract(api).document;
  const requirements = (model.op.operation.security ?? document.security ?? []) as Array<Record<string, unknown>>;
  if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) return false;
  const schemes = (document.components?.securitySchemes ?? {}) as Record<string, SecurityScheme>;
  return !requirements.some((requirement) =>
    Object.keys(requirement).every((name) => schemes[name] !== undefined && carries(request, schemes[name])),
  );
}

/** Where the first problem of the parameters lies: `<in> parameter <name> ...` as readParameters words it. */
function parameterViolation(model: OperationModel, problems: string[]): Violation | undefined {
  const first = problems[0];
  if (first === undefined) return undefined;
  const parameter = model.parameters.find((p) => first.startsWith(`${p.in} parameter ${p.name}`));
  if (!parameter) return { description: first, location: { in: "query", name: "" } };
  return {
    description: first,
    location: { in: parameter.in, name: parameter.name },
    ...(first.endsWith("is required") ? { removed: true } : {}),
  };
}

/** The body as the server reads it, or why it cannot be read. */
function parsedBody(model: OperationModel, request: PreparedRequest): { value: unknown } | { error: string } {
  const body = model.body!;
  const mediaType = mediaTypeOf(headerOf(request, "content-type")) || body.mediaType;
  if (mediaType === "application/x-www-form-urlencoded") {
    const fields = Object.fromEntries(
      Object.entries(parseForm(request.body ?? "")).filter(([, value]) => value !== ""),
    );
    const contract = loadContract(model.op.api);
    return { value: coerceForm(resolveAt(model.op.api, body.pointer) as JsonSchema, fields, contract.deref) };
  }
  if (mediaType.includes("json")) {
    try {
      return { value: JSON.parse(request.body ?? "") as unknown };
    } catch {
      return { error: "the body is not valid JSON" };
    }
  }
  return { value: request.body };
}

function bodyViolation(model: OperationModel, request: PreparedRequest): Violation | undefined {
  const body = model.body;
  if (!body) return undefined;
  if (request.body === undefined || request.body === "") {
    return body.required
      ? { description: "body: the body is missing", location: { in: "body", path: [] }, removed: true }
      : undefined;
  }
  const parsed = parsedBody(model, request);
  if ("error" in parsed) return { description: `body: ${parsed.error}`, location: { in: "body", path: [] } };
  const result = validateAt(model.op.api, body.pointer, parsed.value);
  const error = result.errors[0];
  if (result.valid || !error) return undefined;
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  return {
    description: `body: ${describeErrors([error])}`,
    location: { in: "body", path: missing === undefined ? path : [...path, missing] },
    ...(error.keyword === "required" ? { removed: true } : {}),
  };
}

/**
 * The expectation of a recorded request: no credentials where the operation needs them, then the parameters, then
 * the body against the contract. `pathParams` are the router's, percent-decoded.
 */
export function judgeRequest(
  model: OperationModel,
  request: PreparedRequest,
  pathParams: Record<string, string>,
  expected?: Expectation,
): RequestJudgement {
  const api = model.op.api;
  if (lacksCredentials(api, model, request))
    return { expectation: "unauthenticated", label: "recorded request without credentials" };
  // An active run's probes, judged again from its report (--from-json) by what that run expected of them: made-up
  // credentials must be refused; a replay, a deliberately wrong flow step or the narrower key's request is judged by
  // its response's shape only.
  if (expected === "unauthenticated")
    return { expectation: "unauthenticated", label: "recorded request with wrong credentials" };
  if (expected === "any") return { expectation: "any", label: "recorded probe of an active run" };
  const url = new URL(request.url);
  const { problems } = readParameters(loadContract(api), model.op, {
    pathParams,
    query: url.searchParams,
    headers: { get: (name: string) => headerOf(request, name) ?? null },
  });
  const violation = parameterViolation(model, problems) ?? bodyViolation(model, request);
  if (violation)
    return { expectation: "invalid", violation, label: `recorded invalid request: ${violation.description}` };
  return { expectation: "valid", label: "recorded request" };
}
