// Checking one HTTP exchange against its operation: the request's parameters (coerced first) and body, and a
// response's status, headers, media type and body. The one implementation of "which documented response covers this
// status", "does the media type match" and "does the body validate": the mock and the sandbox, the test helpers
// (checkResponse) and the conformance runner (conformance/judge/, which adds the contract's words on top) use it.
import type { Header, JsonSchema, MediaType, Reference, Response } from "./model.js";
import type { OperationInfo } from "./operations.js";
import { coerceForm, coerceParameter, coerceScalar, rawParameter, type ParameterSource } from "./parameters.js";
import { joinPointer } from "./refs.js";
import type { RouteMatch } from "./router.js";
import { describeErrors, type ValidationResult, type Validators } from "./validation.js";

/** The part of an HTTP request a check reads; `body` holds the exact bytes received. */
export interface HttpRequest {
  method: string;
  url: URL;
  headers: { get(name: string): string | null };
  body: Uint8Array;
}

export type RequestCheck =
  | { ok: true; params: Record<string, unknown>; body: unknown; mediaType: string | undefined }
  | { ok: false; status: number; message: string };

/**
 * What a check needs from the contract (kept narrow so the functions here stay plain, and so that a caller may bring
 * its own memoized validation, as the conformance runner does).
 */
export interface CheckContext {
  validators: Pick<Validators, "validate">;
  deref: <T>(node: T | Reference) => T;
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Parses an `application/x-www-form-urlencoded` body; repeated fields become arrays. Every field is an own
 * property: one named `__proto__` or `constructor` is a field like any other. */
export function parseForm(body: Uint8Array | string): Record<string, string | string[]> {
  const fields = new Map<string, string | string[]>();
  for (const [key, value] of new URLSearchParams(typeof body === "string" ? body : new TextDecoder().decode(body))) {
    const previous = fields.get(key);
    fields.set(
      key,
      previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value],
    );
  }
  return Object.fromEntries(fields);
}

/** The operation's parameters read from a request, coerced to their schema types, with what is wrong with them. */
export function readParameters(
  ctx: CheckContext,
  operation: OperationInfo,
  source: ParameterSource,
): { values: Record<string, unknown>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const { parameter, pointer } of operation.parameters) {
    const schema = ctx.deref<JsonSchema>(parameter.schema ?? {});
    const raw = rawParameter(parameter, schema, source);
    const subject = `${parameter.in} parameter ${parameter.name}`;
    if (raw === undefined) {
      if (parameter.required) problems.push(`${subject} is required`);
      continue;
    }
    const value = coerceParameter(parameter, schema, raw, ctx.deref);
    if (parameter.schema) {
      const result = ctx.validators.validate(joinPointer(pointer, "schema"), value);
      if (!result.valid) problems.push(describeErrors(result.errors, subject));
    }
    values[parameter.name] = value;
  }
  return { values, problems };
}

function parseBody(
  mediaType: string,
  body: Uint8Array,
  schema: JsonSchema,
  ctx: CheckContext,
): { value: unknown } | { error: string } {
  if (mediaType === "application/x-www-form-urlencoded")
    return { value: coerceForm(schema, parseForm(body), ctx.deref) };
  if (mediaType === "application/json" || mediaType.endsWith("+json")) {
    try {
      return { value: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body)) as unknown };
    } catch (error) {
      return { error: `the body is not valid JSON (${(error as Error).message})` };
    }
  }
  return { value: new TextDecoder().decode(body) };
}

/**
 * The status of a request whose parameters or body break the operation's schemas, read from its documented
 * responses as Prism reads them, so that the mock and the sandbox refuse alike: 422 where documented (or 4XX), else
 * 400, else the `default` response as 422 (issue 36).
 */
export function invalidRequestStatus(operation: OperationInfo): number {
  const keys = Object.keys(operation.operation.responses ?? {});
  if (keys.includes("422") || keys.includes("4XX")) return 422;
  if (keys.includes("400")) return 400;
  return 422;
}

/** Checks a routed request: parameters, then media type and body. Returns the coerced values or why it is refused. */
export function checkRequest(ctx: CheckContext, match: RouteMatch, request: HttpRequest): RequestCheck {
  const { operation } = match;
  const invalid = invalidRequestStatus(operation);
  const { values, problems } = readParameters(ctx, operation, {
    pathParams: match.pathParams,
    query: request.url.searchParams,
    headers: request.headers,
  });
  if (problems.length > 0) return { ok: false, status: invalid, message: problems.join("; ") };
  const spec = operation.requestBody;
  if (!spec) return { ok: true, params: values, body: undefined, mediaType: undefined };
  if (request.body.byteLength === 0) {
    return spec.required
      ? { ok: false, status: invalid, message: "a request body is required" }
      : { ok: true, params: values, body: undefined, mediaType: undefined };
  }
  const mediaType = mediaTypeOf(request.headers.get("content-type"));
  const media: MediaType | undefined = spec.content[mediaType];
  if (!media) {
    const expected = Object.keys(spec.content).join(" or ");
    return { ok: false, status: 415, message: `Content-Type must be ${expected}, got ${mediaType || "none"}` };
  }
  const parsed = parseBody(mediaType, request.body, ctx.deref<JsonSchema>(media.schema ?? {}), ctx);
  if ("error" in parsed) return { ok: false, status: 400, message: parsed.error };
  if (media.schema) {
    const result = ctx.validators.validate(
      joinPointer(operation.pointer, "requestBody", "content", mediaType, "schema"),
      parsed.value,
    );
    if (!result.valid) return { ok: false, status: invalid, message: describeErrors(result.errors, "body") };
  }
  return { ok: true, params: values, body: parsed.value, mediaType };
}

export interface HttpResponse {
  status: number;
  /** The response headers; when given, documented headers are checked (required ones present, values valid). */
  headers?: { get(name: string): string | null };
  contentType: string | null | undefined;
  /** The parsed body (JSON) or its text; undefined when there is none. */
  body: unknown;
}

/**
 * The documented response key for a status: the exact code, else its range (`4XX`), else a concrete code of the same
 * class that `sameClass` accepts (none by default: the runner reads the contract's words there), else `default`.
 */
export function responseKeyFor(
  operation: OperationInfo,
  status: number,
  sameClass: (key: string) => boolean = () => false,
): string | undefined {
  const responses = operation.operation.responses ?? {};
  const statusClass = String(status)[0];
  return (
    [String(status), `${statusClass}XX`].find((key) => key in responses) ??
    Object.keys(responses).find((key) => /^\d{3}$/.test(key) && key[0] === statusClass && sameClass(key)) ??
    ("default" in responses ? "default" : undefined)
  );
}

/** The operation's success response key: its lowest documented 2xx code, or `2XX` (which sorts after every code). */
export function successKeyOf(operation: OperationInfo): string | undefined {
  return Object.keys(operation.operation.responses ?? {})
    .filter((key) => /^2(\d\d|XX)$/.test(key))
    .sort()[0];
}

/** A documented response of an operation: its key, its pointer, and the Response object (`$ref` followed). */
export interface DocumentedResponse {
  key: string;
  pointer: string;
  response: Response;
}

/** The documented response under `key` (a key of the operation's responses, e.g. from responseKeyFor). */
export function documentedResponse(
  ctx: Pick<CheckContext, "deref">,
  operation: OperationInfo,
  key: string,
): DocumentedResponse {
  const node = (operation.operation.responses ?? {})[key] as Response | Reference;
  return { key, pointer: joinPointer(operation.pointer, "responses", key), response: ctx.deref<Response>(node) };
}

/**
 * The documented media type (a key of `content`) that a Content-Type falls under: the same type, else a range that
 * covers it (`text/*`, `*\/*`); undefined when none does, or when there is no Content-Type.
 */
export function documentedMediaType(
  content: Record<string, unknown>,
  contentType: string | null | undefined,
): string | undefined {
  const actual = mediaTypeOf(contentType);
  if (actual === "") return undefined;
  const [type] = actual.split("/");
  return (
    Object.keys(content).find((declared) => declared.toLowerCase() === actual) ??
    Object.keys(content).find((declared) => declared === "*/*" || declared.toLowerCase() === `${type}/*`)
  );
}

/** The pointer of the schema documented for a response's media type. */
export function responseSchemaPointer(documented: DocumentedResponse, mediaType: string): string {
  return joinPointer(documented.pointer, "content", mediaType, "schema");
}

/** Validates a response body against the schema of its media type; undefined when that media type has no schema. */
export function validateResponseBody(
  ctx: CheckContext,
  documented: DocumentedResponse,
  mediaType: string,
  body: unknown,
): ValidationResult | undefined {
  if (!documented.response.content?.[mediaType]?.schema) return undefined;
  return ctx.validators.validate(responseSchemaPointer(documented, mediaType), body);
}

/**
 * Problems of the documented headers of a response: required ones missing, values (trimmed, then coerced to their
 * schema's type) not valid. Each problem names the header and the value received.
 */
export function responseHeaderProblems(
  ctx: CheckContext,
  documented: DocumentedResponse,
  headers: { get(name: string): string | null },
): string[] {
  const problems: string[] = [];
  for (const [name, node] of Object.entries(documented.response.headers ?? {})) {
    const header = ctx.deref<Header>(node);
    const value = headers.get(name)?.trim() ?? null;
    if (value === null) {
      if (header.required) problems.push(`required header ${name} is missing`);
      continue;
    }
    if (!header.schema) continue;
    const result = ctx.validators.validate(
      joinPointer(documented.pointer, "headers", name, "schema"),
      coerceScalar(value, ctx.deref<JsonSchema>(header.schema)),
    );
    if (!result.valid) problems.push(describeErrors(result.errors, `header ${name} ${JSON.stringify(value)}`));
  }
  return problems;
}

/** Problems of a response against its operation (empty when it conforms): status, headers, media type, body. */
export function checkResponse(ctx: CheckContext, operation: OperationInfo, response: HttpResponse): string[] {
  const key = responseKeyFor(operation, response.status);
  if (key === undefined) return [`status ${response.status} is not documented`];
  const documented = documentedResponse(ctx, operation, key);
  const problems = response.headers ? responseHeaderProblems(ctx, documented, response.headers) : [];
  const content = documented.response.content ?? {};
  if (Object.keys(content).length === 0) return problems;
  const mediaType = documentedMediaType(content, response.contentType);
  if (mediaType === undefined) {
    const actual = mediaTypeOf(response.contentType);
    return [...problems, `content type "${actual}" is not one of ${Object.keys(content).join(", ")}`];
  }
  const result = validateResponseBody(ctx, documented, mediaType, response.body);
  return result === undefined || result.valid ? problems : [...problems, describeErrors(result.errors, "body")];
}
