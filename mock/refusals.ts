// Puts the reason of a refusal into the API's own error body. Which body, and which field carries the message, is
// read from the contract (the documented error responses and their examples), not listed here, so that a changed
// envelope follows.
import {
  type ApiName,
  type Contract,
  examplesOf,
  isJsonObject,
  joinPointer,
  type JsonSchema,
  loadContract,
  type OperationInfo,
  responseKeyFor,
  type SecurityScheme,
} from "../lib/contract/index.js";

/** One violation as Prism reports it (also in its `sl-violations` header, with `request` before the path). */
export interface Violation {
  path?: string[];
  code?: string | number;
  message: string;
}

/** The violations in one line, e.g. "Request body must have required property 'domain'; ...". */
export function describeViolations(violations: readonly Violation[]): string {
  return violations.map((v) => v.message).join("; ");
}

/** An error body of the API with the reason of a refusal in it. */
export interface ErrorBody {
  mediaType: string;
  body: Record<string, unknown>;
}

export interface RefusalOptions {
  /** Only this media type (the one Prism negotiated for the response). */
  mediaType?: string;
  /** Error codes that fit the refusal, best first: an example that carries one comes before the others. */
  codes?: readonly string[];
  /**
   * Whether any documented error response of the API may give the envelope when the operations given document
   * none for the status (a request no operation matched, or a status its operation does not document).
   */
  anywhere?: boolean;
}

type Candidate = readonly [OperationInfo, string];

const isErrorKey = (key: string) => key === "default" || /^[45]XX$/.test(key) || Number(key) >= 400;

/** Where the envelope may come from, best first: `operations` for the status, the API for it, any error response. */
function candidates(
  contract: Contract,
  operations: readonly OperationInfo[],
  status: number,
  anywhere: boolean,
): Candidate[] {
  const forStatus = (op: OperationInfo): Candidate[] => {
    const key = responseKeyFor(op, status);
    return key === undefined ? [] : [[op, key]];
  };
  if (!anywhere) return operations.flatMap(forStatus);
  const all = contract.operations().filter((op) => !op.webhook);
  const anyError = (op: OperationInfo): Candidate[] =>
    Object.keys(op.operation.responses ?? {})
      .filter(isErrorKey)
      .map((key) => [op, key] as const);
  return [...operations.flatMap(forStatus), ...all.flatMap(forStatus), ...all.flatMap(anyError)];
}

/**
 * The API's error body for a refusal with this status, `message` in it: a documented example of the first
 * candidate response (see `candidates`) whose message field can hold it. An example carrying one of
 * `options.codes`, in any candidate, is taken before the others (identity's authorize page documents an
 * `invalid_redirect_uri` body before the token endpoint's `invalid_request`). Undefined when the contract documents
 * no such JSON body.
 */
export function errorBody(
  api: ApiName,
  operations: readonly OperationInfo[],
  status: number,
  message: string,
  options: RefusalOptions = {},
): ErrorBody | undefined {
  const contract = loadContract(api);
  const documented = documentedExamples(
    contract,
    candidates(contract, operations, status, options.anywhere ?? false),
    options,
  );
  const codes = options.codes ?? [];
  const ranked = documented
    .map((found, index) => ({ found, index, rank: codeRank(found.example, codes) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index);
  for (const { found } of ranked) {
    const body = withMessage(contract, found.schemaPointer, found.example, message);
    if (body) return { mediaType: found.mediaType, body };
  }
  return undefined;
}

interface DocumentedExample {
  mediaType: string;
  schemaPointer: string;
  example: Record<string, unknown>;
}

/** The JSON examples of the candidate responses, in candidate and document order, each shared response once. */
function documentedExamples(
  contract: Contract,
  found: readonly Candidate[],
  options: RefusalOptions,
): DocumentedExample[] {
  const seen = new Set<string>();
  const examples: DocumentedExample[] = [];
  for (const [op, key] of found) {
    const content = contract.response(op, key)?.content ?? {};
    for (const [mediaType, media] of Object.entries(content)) {
      if (!mediaType.endsWith("json") || !media.schema || (options.mediaType && options.mediaType !== mediaType))
        continue;
      const schemaPointer = joinPointer(op.pointer, "responses", key, "content", mediaType, "schema");
      // Operations share their error responses ($ref): each documented one is tried once. Responses that only share
      // a schema keep examples of their own.
      const where = contract.canonicalPointer(joinPointer(op.pointer, "responses", key, "content", mediaType));
      if (seen.has(where)) continue;
      seen.add(where);
      for (const example of examplesOf(media, contract.deref)
        .map((e) => e.value)
        .filter(isJsonObject))
        examples.push({ mediaType, schemaPointer, example });
    }
  }
  return examples;
}

/** The index in `codes` of the earliest code the example carries; `codes.length` when it carries none. */
function codeRank(example: Record<string, unknown>, codes: readonly string[]): number {
  const found = Object.values(example)
    .map((value) => codes.indexOf(value as string))
    .filter((index) => index >= 0);
  return found.length > 0 ? Math.min(...found) : codes.length;
}

/**
 * `example` with its message replaced by `message`, where the contract lets us say where the message goes: the
 * first string property of the example that the schema does not pin down (no `const`, `enum` or `not`, and not the
 * `x-error-envelope` status property; prose before codes) and that still validates with the message in it.
 */
function withMessage(
  contract: Contract,
  schemaPointer: string,
  example: Record<string, unknown>,
  message: string,
): Record<string, unknown> | undefined {
  const schema = contract.deref<JsonSchema>(contract.resolve(schemaPointer) as JsonSchema);
  const statusProperty = (contract.document["x-error-envelope"] as { property?: string } | undefined)?.property;
  // RFC 6749 §5.2 allows no `"` or `\\` and only printable ASCII in error_description: the plainer form fits.
  const plainMessage = message
    .replaceAll('"', "'")
    .replaceAll("\\", "/")
    .replace(/[^\x20-\x7E]/g, "?");
  // Prose (a value with a space) is the message; a code such as OAuth's `error: invalid_grant` is not.
  const fields = Object.entries(example).sort(([, a], [, b]) => Number(isProse(b)) - Number(isProse(a)));
  for (const [name, value] of fields) {
    if (typeof value !== "string" || name === statusProperty) continue;
    const declared = schema.properties?.[name];
    const property = declared ? contract.deref<JsonSchema>(declared) : {};
    if ("const" in property || "enum" in property || "not" in property) continue;
    for (const text of [message, plainMessage]) {
      const explained = { ...example, [name]: text };
      if (contract.validate(schemaPointer, explained).valid) return explained;
    }
  }
  return undefined;
}

const isProse = (value: unknown) => typeof value === "string" && /\s/.test(value.trim());

/**
 * The error codes that fit a refused request, best first. RFC 6749 §5.2 (and RFC 6750 §3.1) call a request that
 * is missing a parameter or is otherwise malformed `invalid_request`, and name the code for an unsupported value
 * after its parameter (`unsupported_grant_type`, `unsupported_response_type`): a value outside a `const` or `enum`
 * of property `p` fits `unsupported_<p>` first. Envelopes without codes (links, pay, catalog) ignore them.
 */
export function fittingCodes(violations: readonly Violation[]): string[] {
  const unsupported = violations
    .filter((v) => (v.code === "enum" || v.code === "const") && (v.path?.length ?? 0) > 1)
    .map((v) => `unsupported_${v.path!.at(-1)}`);
  return [...new Set([...unsupported, "invalid_request"])];
}

/** Prism's whole message for a request without the credential its operation requires. */
export const PRISM_SECURITY_MESSAGE = "Invalid security scheme used";

/**
 * What a request without its credential lacks, named by header as the sandbox names it: "the x-seller-api-key
 * header is required", "the Authorization header is required (Bearer <token>)"; alternatives joined with "or".
 */
export function missingCredential(api: ApiName, operation: OperationInfo): string {
  const contract = loadContract(api);
  const schemes = contract.document.components?.securitySchemes ?? {};
  const names = (operation.operation.security ?? contract.document.security ?? []).flatMap((requirement) =>
    Object.keys(requirement),
  );
  const headers = [...new Set(names)].map((name) => {
    const scheme = contract.deref<SecurityScheme>(schemes[name]!);
    if (scheme.type === "apiKey")
      return scheme.in === "header"
        ? `the ${scheme.name} header is required`
        : `the ${scheme.name} ${scheme.in} parameter is required`;
    return `the Authorization header is required (Bearer <${scheme.bearerFormat ?? "token"}>)`;
  });
  return headers.length > 0 ? headers.join(", or ") : PRISM_SECURITY_MESSAGE;
}
