// The checks of a response against what its operation documents for that status: status_code_conformance,
// content_type_conformance, response_schema_conformance and response_headers_conformance. Which documented response
// covers a status, whether a media type matches and whether a body or a header validates is lib/contract's one
// implementation (lib/contract/requests.ts). What this file adds are the contract's words (contract/words.ts): an
// assumed status code, the error envelope under a success status, a union judged by its closest branch, and
// messages that name the schema.
import {
  type ApiName,
  describeErrors,
  documentedMediaType,
  documentedResponse,
  type DocumentedResponse,
  type ErrorObject,
  loadContract,
  mediaTypeOf,
  responseHeaderProblems,
  responseSchemaPointer,
  validateResponseBody,
} from "../../lib/contract/index.js";
import { checkContextOf, resolveAt, validateAt } from "../contract/lookup.js";
import type { RecordedResponse } from "../model/exchange.js";
import type { Evidence } from "../model/finding.js";
import { assumptionBroken } from "./assumptions.js";
import { closedResponseAssumption, envelopeError, judgedStatus, responseErrorWord } from "../contract/words.js";
import type { Outcome, ResponseCheckInput } from "./response-check-input.js";

/** The response and the documented response that judges its status, when there are both. */
function documentedFor(
  input: ResponseCheckInput,
): { response: RecordedResponse; documented: DocumentedResponse; api: ApiName } | undefined {
  const response = input.exchange.response;
  if (!response) return undefined;
  const api = input.model.op.api;
  const judged = judgedStatus(api, input.model.op, response.status);
  if (judged === undefined) return undefined;
  return { response, api, documented: documentedResponse(checkContextOf(api), input.model.op, judged.key) };
}

/**
 * The status must be documented exactly, by range, or covered by `default`; one of the same class as an assumed code
 * (a response with `x-assumption`: 201 where 200 is assumed) breaks that assumption.
 */
export function statusCodeConformance(input: ResponseCheckInput): Outcome {
  const response = input.exchange.response;
  if (!response) return undefined;
  const judged = judgedStatus(input.model.op.api, input.model.op, response.status);
  const documented = Object.keys(input.model.op.operation.responses ?? {}).join(", ");
  if (judged?.assumption !== undefined)
    return assumptionBroken(
      input,
      `status ${response.status} is not documented; the contract assumes ${judged.key} (documented: ${documented})`,
      judged.assumption,
    );
  return judged === undefined ? `status ${response.status} is not documented (documented: ${documented})` : "";
}

/** A body must come with one of the media types documented for its status. */
export function contentTypeConformance(input: ResponseCheckInput): Outcome {
  const found = documentedFor(input);
  if (!found) return undefined;
  const { response, documented } = found;
  const content = documented.response.content ?? {};
  const declared = Object.keys(content).join(", ");
  if (declared === "" || response.text.length === 0) return undefined;
  const actual = mediaTypeOf(response.headers["content-type"]);
  if (!actual) return `the response has a body but no Content-Type (documented: ${declared})`;
  return documentedMediaType(content, actual) !== undefined
    ? ""
    : `Content-Type ${actual} is not documented for status ${response.status} (documented: ${declared})`;
}

/** The body as its schema judges it: parsed JSON for a JSON media type, else the text; or why it cannot be judged. */
function bodyOf(response: RecordedResponse, mediaType: string): { value: unknown } | { problem: string } {
  if (!mediaType.includes("json")) return { value: response.text };
  if (response.tooLarge !== undefined)
    return {
      problem: `the body is larger than ${response.tooLarge / 1024 / 1024} MiB, the most the runner reads: not checked`,
    };
  if (!response.isJson)
    return { problem: `the ${mediaType} body is not valid JSON: ${JSON.stringify(response.text.slice(0, 80))}` };
  return { value: response.json };
}

/** The body must validate against the schema documented for its status and media type. */
export function responseSchemaConformance(input: ResponseCheckInput): Outcome {
  const found = documentedFor(input);
  if (!found) return undefined;
  const { response, documented, api } = found;
  const content = documented.response.content ?? {};
  const mediaType = documentedMediaType(content, response.headers["content-type"]);
  // No documented media type (content_type_conformance reports it) or no schema for it: nothing to validate.
  if (mediaType === undefined || !content[mediaType]?.schema) return undefined;
  const body = bodyOf(response, mediaType);
  if ("problem" in body) return body.problem;
  const result = validateResponseBody(checkContextOf(api), documented, mediaType, body.value);
  if (result?.valid !== false) return "";
  // An error envelope under a success status is a refusal (x-error-envelope): its body is one of the documented
  // errors.
  if (response.status < 400 && envelopeError(api, response) !== undefined && matchesDocumentedError(input, body.value))
    return "";
  return closestBranchVerdict(input, responseSchemaPointer(documented, mediaType), body.value, result.errors);
}

/**
 * A body that breaks its schema, judged by the closest branch of a union (links and pay: the success envelope or the
 * error envelope), so that an assumption broken inside the success body stays a warning and the message names that
 * branch's errors only.
 */
function closestBranchVerdict(
  input: ResponseCheckInput,
  schemaPointer: string,
  body: unknown,
  errors: ErrorObject[],
): string {
  const api = input.model.op.api;
  const schema = resolveAt(api, schemaPointer);
  const union = schema.anyOf ? "anyOf" : schema.oneOf ? "oneOf" : undefined;
  const candidates = union ? (schema[union] ?? []).map((_, i) => `${schemaPointer}/${union}/${i}`) : [schemaPointer];
  const judged = candidates
    .map((candidate) => {
      const found = candidate === schemaPointer ? errors : validateAt(api, candidate, body).errors;
      const assumed = found.map((error) => ({
        error,
        assumption: responseErrorWord(api, candidate, error, "x-assumption") ?? closedResponseAssumption(error),
      }));
      const hard = assumed.filter((a) => a.assumption === undefined).map((a) => a.error);
      return { candidate, errors: found, assumed, hard };
    })
    // Closest: no hard error at all; else the branch whose first hard error lies deepest (its outer shape fits:
    // a success body with a few bad fields is not "closer" to the error envelope for having more of them).
    .sort(
      (a, b) =>
        Number(a.hard.length > 0) - Number(b.hard.length > 0) ||
        shallowestError(b.hard) - shallowestError(a.hard) ||
        a.hard.length - b.hard.length ||
        a.errors.length - b.errors.length,
    );
  const closest = judged[0]!;
  const message = (shown: readonly ErrorObject[]) =>
    `the body does not match ${schemaName(api, closest.candidate)}: ${describeErrors(shown.slice(0, 5))}`;
  if (closest.hard.length > 0 || closest.errors.length === 0) {
    const broken = closest.hard.length > 0 ? closest.hard : errors;
    input.locate?.(placesOf(broken, message));
    return message(broken);
  }
  const reasons = [...new Set(closest.assumed.map((a) => a.assumption!))];
  return assumptionBroken(input, message(closest.errors), reasons.join(" "));
}

/**
 * Each place in the body a schema error names, once: its location (a missing or extra property's own) with array
 * positions as `*`, and the keywords it breaks there. An integer `error` beside a broken `data` is two places; the
 * integer 0 where the string "0" is the only value breaks `type` and `const` at one place, `type+const`; `/data/0/id`
 * and `/data/3/id` broken alike are one.
 */
function placesOf(errors: readonly ErrorObject[], messageOf: (errors: ErrorObject[]) => string): Evidence[] {
  const byLocation = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    // A missing or an extra property is a place of its own: the property's, not its object's.
    const { missingProperty, additionalProperty } = error.params as Record<string, string | undefined>;
    const property = missingProperty ?? additionalProperty;
    const path = property === undefined ? error.instancePath : `${error.instancePath}/${property}`;
    const location = path.replace(/\/\d+(?=\/|$)/g, "/*") || "(root)";
    byLocation.set(location, [...(byLocation.get(location) ?? []), error]);
  }
  return [...byLocation.entries()].map(([location, found]) => {
    const keywords = [...new Set(found.map((error) => error.keyword))];
    // One error per keyword: the same field broken on every item of a list is said once.
    const shown = keywords.map((keyword) => found.find((error) => error.keyword === keyword)!);
    return { location, keyword: keywords.join("+"), message: messageOf(shown) };
  });
}

/** Whether a body validates against one of the operation's documented error responses (4XX, 5XX, default). */
function matchesDocumentedError(input: ResponseCheckInput, body: unknown): boolean {
  const op = input.model.op;
  const ctx = checkContextOf(op.api);
  return Object.keys(op.operation.responses ?? {})
    .filter((key) => key === "default" || /^[45]/.test(key))
    .some((key) => {
      const documented = documentedResponse(ctx, op, key);
      const mediaType = Object.keys(documented.response.content ?? {}).find((m) => m.includes("json"));
      return mediaType !== undefined && validateResponseBody(ctx, documented, mediaType, body)?.valid === true;
    });
}

/** Depth (JSON Pointer segments) of the shallowest error's place in the body; Infinity without errors. */
function shallowestError(errors: readonly ErrorObject[]): number {
  return Math.min(...errors.map((error) => (error.instancePath === "" ? 0 : error.instancePath.split("/").length - 1)));
}

/** The component name of a schema (`Error`, `DomainListResponse`) for messages. */
function schemaName(api: ApiName, pointer: string): string {
  const canonical = loadContract(api).canonicalPointer(pointer);
  return canonical.startsWith("/components/schemas/") ? canonical.split("/").pop()! : "the documented schema";
}

/** Documented required headers must be present and every documented header must match its schema. */
export function responseHeadersConformance(input: ResponseCheckInput): Outcome {
  const found = documentedFor(input);
  if (!found || Object.keys(found.documented.response.headers ?? {}).length === 0) return undefined;
  const headers = found.response.headers;
  return responseHeaderProblems(checkContextOf(found.api), found.documented, {
    get: (name) => headers[name.toLowerCase()] ?? null,
  }).join("; ");
}
