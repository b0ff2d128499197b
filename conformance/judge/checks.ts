/* eslint-disable max-lines -- over the cap since the code was formatted at 120 columns; to be split */
// The named checks. Each entry says what it catches; the table of docs/guide/conform-reference.md is this list. The
// response checks below run on every exchange; the stateful ones live in stateful.ts and the OpenID Connect ones in
// identity-checks.ts.
import { UsageError } from "../../lib/cli.js";
import {
  type ApiName,
  coerceScalar,
  describeErrors,
  escapeSegment as pointerSegment,
  type JsonSchema,
  loadContract,
} from "../../lib/contract/index.js";
import type { ErrorObject } from "ajv/dist/2020.js";
import { propertiesWith, resolveAt, validateAt } from "../contract/lookup.js";
import type { CaseOrigin, OperationModel, Violation } from "../plan/cases.js";
import {
  closedResponseAssumption,
  type ContractWord,
  envelopeError,
  isRefusal,
  judgedStatus,
  requestWord,
  responseErrorWord,
} from "./contract-words.js";
import { IDENTITY_CHECKS } from "./identity-check-list.js";
import { listParametersProblems, seenTogetherProblems } from "./list-parameters.js";
import { headerOf, PROFILES } from "../apis.js";
import { resetAtOf } from "../../lib/rate-limit.js";
import type { Exchange, RecordedResponse } from "../send/transport.js";

export interface CheckInfo {
  name: string;
  /** What the check catches, one sentence. */
  catches: string;
  /** Only these APIs (all when absent). */
  apis?: ApiName[];
  /** Needs --allow-writes. */
  writes?: boolean;
  /** Judges recorded traffic only (--har, --from-json, contracts proxy): an active run does not run it. */
  recordedOnly?: boolean;
}

export const CHECKS: CheckInfo[] = [
  {
    name: "not_a_server_error",
    catches: "a 5xx status or no response at all (connection reset, timeout) for any request.",
  },
  {
    name: "status_code_conformance",
    catches:
      "a status code the operation does not document (neither exactly, nor as a range such as 4XX, nor under default); one of the class of a code marked x-assumption (201 where 200 is assumed) is a warning, a failure under --strict.",
  },
  {
    name: "content_type_conformance",
    catches:
      "a body whose Content-Type is not one of the media types documented for that status, or a missing Content-Type.",
  },
  {
    name: "response_schema_conformance",
    catches:
      "a body that does not validate against the documented schema of its status and media type (quirks included), or JSON that does not parse.",
  },
  {
    name: "response_headers_conformance",
    catches:
      "a documented required response header that is missing (the X-RateLimit-* headers on links, Cache-Control on tokens, WWW-Authenticate on userinfo errors) or whose value breaks its schema.",
  },
  {
    name: "negative_data_rejection",
    catches:
      "a request the contract forbids (wrong type, missing required field or parameter, out-of-range value, pattern or enum violation, undeclared property, malformed body) that is not refused (HTTP >= 400, the error envelope, or an error redirect) where the contract says the provider refuses it (x-provider-refuses); elsewhere an accepted invalid request is an observation.",
  },
  {
    name: "positive_data_acceptance",
    catches:
      "a request the contract allows (examples, boundary values, random valid data) that is refused; 404 is accepted where the path names a resource that may not exist.",
  },
  {
    name: "ignored_auth",
    catches:
      "a secured operation that answers a request without credentials, or with wrong credentials (a wrong key, token or signature), with anything but a refusal (HTTP >= 400 or the error envelope).",
  },
  {
    name: "use_after_free",
    apis: ["links"],
    writes: true,
    catches: "a resource that still answers (update or list) after its delete succeeded.",
  },
  {
    name: "ensure_resource_availability",
    apis: ["links", "pay"],
    writes: true,
    catches:
      "a resource whose creation succeeded but that does not appear where the contract lists it (links lists, the pay order list).",
  },
  {
    name: "created_values_echoed",
    apis: ["links", "catalog", "pay"],
    writes: true,
    catches:
      "a created resource whose creation response or list entry shows a field with another value than was sent (fields of the same name and type, or named by the contract's `x-echoes`; not those marked `x-not-echoed`).",
  },
  {
    name: "idempotency",
    apis: ["catalog"],
    writes: true,
    catches: "two product creations with the same Idempotency-Key that do not return the same product.",
  },
  {
    name: "nonce_replay",
    apis: ["pay"],
    catches:
      "a signed request whose nonce was already used that is not refused: the same request again (a read, and with --allow-writes the order creation), or another operation with that nonce.",
  },
  {
    name: "unsupported_method",
    catches: "a method that a path does not document (GET, or with --allow-writes PATCH) that is not refused.",
  },
  { name: "max_response_time", catches: "with --max-response-time <ms>: a response that took longer." },
  {
    name: "scope_enforcement",
    apis: ["catalog"],
    catches:
      "with --read-only-api-key: a write that a key without its scope can call, a refusal that is not 403 or whose body does not name the missing scope, or a read that the narrower key is refused.",
  },
  {
    name: "rate_limit_headers_consistent",
    apis: ["links"],
    catches:
      "X-RateLimit-Limit differing from the contract's cap, X-RateLimit-Remaining not counting down within a window or exceeding the limit, X-RateLimit-Reset not in the future.",
  },
  {
    name: "list_parameters_honoured",
    apis: ["links"],
    catches:
      "a list page that does not do what its query parameters ask (more rows than limit, a perpage above limit or below the rows listed) or a currentpage other than the page asked for (links seed: limit is results per page, page the current page number).",
  },
  {
    name: "seen_together",
    apis: ["pay"],
    catches:
      "a listed order whose status and date_payed are not as the seed has seen them together (status 0 with date_payed null, 1 with a timestamp): an x-assumption, so a warning unless --strict.",
  },
  {
    name: "update_visible_on_read",
    apis: ["links"],
    writes: true,
    catches:
      "an update answered with success whose values the next read does not show (a domain or campaign update and its list; with --operation updateAccount, the account's e-mail address).",
  },
  ...IDENTITY_CHECKS,
  {
    name: "issued_token_accepted",
    apis: ["identity"],
    recordedOnly: true,
    catches:
      "in recorded traffic (--har, --from-json): an access token the provider issued that is refused with 401 before it expires (expires_in, else the JWT's exp), unless a logout or a second exchange of its code came between.",
  },
];

export const CHECK_NAMES = CHECKS.map((c) => c.name);

/** Whether a check applies to an API at all (`apis`), whatever the run's options. */
export function appliesTo(check: CheckInfo, api: ApiName): boolean {
  return check.apis === undefined || check.apis.includes(api);
}

/** The checks that --check and --exclude-check select (all by default); an unknown name is a usage error. */
export function selectChecks(include: string[] = [], exclude: string[] = []): Set<string> {
  for (const name of [...include, ...exclude]) {
    if (!CHECK_NAMES.includes(name))
      throw new UsageError(`unknown check "${name}"; run \`contracts conform --list-checks\``);
  }
  const checks = new Set(include.length > 0 ? include : CHECK_NAMES);
  for (const name of exclude) checks.delete(name);
  return checks;
}

export const anyApplies = (checks: ReadonlySet<string>, api: ApiName): boolean =>
  CHECKS.some((check) => checks.has(check.name) && appliesTo(check, api));

function mediaTypeMatches(declared: string, actual: string): boolean {
  if (declared === actual || declared === "*/*") return true;
  const [type, subtype] = declared.split("/");
  return subtype === "*" && actual.startsWith(`${type}/`);
}

function contentTypeOf(response: RecordedResponse): string | undefined {
  return response.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() || undefined;
}

export type Expectation = "valid" | "invalid" | "unauthenticated" | "any";

export interface ResponseCheckInput {
  model: OperationModel;
  exchange: Exchange;
  expectation: Expectation;
  origin?: CaseOrigin | "auth" | "stateful";
  /** When set, positive_data_acceptance does not apply, for this reason. */
  positiveAcceptanceSkipped?: string;
  /** What makes an invalid case invalid (the mutation applied to a valid one). */
  violation?: Violation;
  /** --strict: breaking an `x-assumption` fails instead of warning. */
  strict?: boolean;
  /**
   * Receives the warnings (x-assumption) and observations (accepted invalid data the provider never promised to
   * refuse).
   */
  note?: (note: CheckNote) => void;
}

export interface CheckNote {
  kind: "warning" | "observation";
  message: string;
  /** The `x-assumption` text (warnings). */
  assumption?: string;
}

/** A broken `x-assumption`: a warning with the assumption's reason, or under --strict a failure. */
export function assumptionBroken(
  input: Pick<ResponseCheckInput, "strict" | "note">,
  message: string,
  assumption: string,
): string {
  if (input.strict) return `${message} (x-assumption, failing under --strict: ${assumption})`;
  input.note?.({ kind: "warning", message, assumption });
  return "";
}

/** Outcome of one check on one exchange: `undefined` = not applicable, "" = passed, text = the failure. */
type Outcome = string | undefined;

/** The response and the pointer of the documented response that covers its status, when there are both. */
function documented(
  input: ResponseCheckInput,
): { response: RecordedResponse; pointer: string; api: ApiName } | undefined {
  const response = input.exchange.response;
  if (!response) return undefined;
  const judged = judgedStatus(input.model.op.api, input.model.op, response.status);
  return judged === undefined
    ? undefined
    : {
        response,
        pointer: `${input.model.op.pointer}/responses/${pointerSegment(judged.key)}`,
        api: input.model.op.api,
      };
}

const RESPONSE_CHECKS: Record<string, (input: ResponseCheckInput) => Outcome> = {
  /** A 5xx or no response at all is a failure for any request, valid or not. */
  not_a_server_error({ exchange }) {
    if (exchange.error) return `no response: ${exchange.error}`;
    return exchange.response!.status >= 500 ? `server error ${exchange.response!.status}` : "";
  },

  /**
   * The status must be documented exactly, by range, or covered by `default`; one of the same class as an assumed
   * code (a response with `x-assumption`: 201 where 200 is assumed) breaks that assumption.
   */
  status_code_conformance(input) {
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
  },

  /** A body must come with one of the media types documented for its status. */
  content_type_conformance(input) {
    const found = documented(input);
    if (!found) return undefined;
    const { response, pointer, api } = found;
    const declared = Object.keys(resolveAt(api, pointer).content ?? {});
    if (declared.length === 0 || response.text.length === 0) return undefined;
    const actual = contentTypeOf(response);
    if (!actual) return `the response has a body but no Content-Type (documented: ${declared.join(", ")})`;
    return declared.some((d) => mediaTypeMatches(d, actual))
      ? ""
      : `Content-Type ${actual} is not documented for status ${response.status} (documented: ${declared.join(", ")})`;
  },

  /** The body must validate against the schema documented for its status and media type. */
  response_schema_conformance(input) {
    const found = documented(input);
    if (!found) return undefined;
    const { response, pointer, api } = found;
    const content = resolveAt(api, pointer).content ?? {};
    const actual = contentTypeOf(response);
    const mediaType = Object.keys(content).find((d) => actual !== undefined && mediaTypeMatches(d, actual));
    if (!mediaType || !content[mediaType]?.schema) return undefined;
    const schemaPointer = `${pointer}/content/${pointerSegment(mediaType)}/schema`;
    let body: unknown = response.text;
    if (mediaType.includes("json")) {
      if (response.tooLarge !== undefined)
        return `the body is larger than ${response.tooLarge / 1024 / 1024} MiB, the most the runner reads: not checked`;
      if (!response.isJson)
        return `the ${mediaType} body is not valid JSON: ${JSON.stringify(response.text.slice(0, 80))}`;
      body = response.json;
    }
    const result = validateAt(api, schemaPointer, body);
    if (result.valid) return "";
    // An error envelope under a success status is a refusal (x-error-envelope): its body is one of the documented
    // errors.
    if (response.status < 400 && envelopeError(api, response) !== undefined && matchesDocumentedError(input, body))
      return "";
    // A union (links and pay: the success envelope or the error envelope) is judged by its closest branch, so that an
    // assumption broken inside the success body stays a warning and the message names that branch's errors only.
    const schema = resolveAt(api, schemaPointer);
    const union = schema.anyOf ? "anyOf" : schema.oneOf ? "oneOf" : undefined;
    const candidates = union ? (schema[union] ?? []).map((_, i) => `${schemaPointer}/${union}/${i}`) : [schemaPointer];
    const judged = candidates
      .map((candidate) => {
        const errors = candidate === schemaPointer ? result.errors : validateAt(api, candidate, body).errors;
        const assumed = errors.map((error) => ({
          error,
          assumption: responseErrorWord(api, candidate, error, "x-assumption") ?? closedResponseAssumption(error),
        }));
        return {
          candidate,
          errors,
          assumed,
          hard: assumed.filter((a) => a.assumption === undefined).map((a) => a.error),
        };
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
    const message = (errors: typeof result.errors) =>
      `the body does not match ${schemaName(api, closest.candidate)}: ${describeErrors(errors.slice(0, 5))}`;
    if (closest.hard.length > 0 || closest.errors.length === 0)
      return message(closest.hard.length > 0 ? closest.hard : result.errors);
    const reasons = [...new Set(closest.assumed.map((a) => a.assumption!))];
    return assumptionBroken(input, message(closest.errors), reasons.join(" "));
  },

  /** Documented required headers must be present and every documented header must match its schema. */
  response_headers_conformance(input) {
    const found = documented(input);
    if (!found) return undefined;
    const { response, pointer, api } = found;
    const headers = resolveAt(api, pointer).headers ?? {};
    if (Object.keys(headers).length === 0) return undefined;
    const problems: string[] = [];
    for (const name of Object.keys(headers)) {
      const headerPointer = `${pointer}/headers/${pointerSegment(name)}`;
      const header = resolveAt(api, headerPointer);
      const value = response.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      if (!header.schema) continue;
      const result = validateAt(
        api,
        `${headerPointer}/schema`,
        coerceScalar(value.trim(), resolveAt(api, `${headerPointer}/schema`) as JsonSchema),
      );
      if (!result.valid) problems.push(`header ${name}: ${JSON.stringify(value)} ${describeErrors(result.errors)}`);
    }
    return problems.join("; ");
  },

  /**
   * Invalid data is refused (a 4xx, an error envelope, or an error redirect where the operation redirects). Accepting
   * it fails only where the contract says the provider refuses it (`x-provider-refuses`); elsewhere the request-side
   * constraint only keeps clients honest, so the acceptance is an observation.
   */
  negative_data_rejection(input) {
    const response = input.exchange.response;
    if (input.expectation !== "invalid" || !response) return undefined;
    if (response.status >= 500) return undefined; // not_a_server_error reports it
    const api = input.model.op.api;
    if (isRefusal(api, response) || isErrorRedirect(response)) return "";
    const what = input.violation?.description ?? "invalid data";
    const violation = input.violation;
    // The words on the node the invalid data broke (a parameter left out is judged by the parameter's own words).
    const wordOnViolation = (word: ContractWord) =>
      violation
        ? requestWord(
            api,
            input.model.op.pointer,
            violation.location,
            input.model.body?.pointer,
            word,
            violation.removed,
          )
        : undefined;
    const promise = wordOnViolation("x-provider-refuses");
    if (promise === undefined) {
      input.note?.({
        kind: "observation",
        message: `${what}: accepted with status ${response.status}; the contract does not say the provider refuses it`,
      });
      return undefined;
    }
    const message = `invalid data was accepted with status ${response.status} (${what}), though the provider refuses it: ${promise}`;
    const assumption = wordOnViolation("x-assumption");
    return assumption === undefined ? message : assumptionBroken(input, message, assumption);
  },

  /** Valid data must be accepted (2xx or a documented redirect); 404 is fine for a path that names a resource. */
  positive_data_acceptance(input) {
    const response = input.exchange.response;
    if (input.expectation !== "valid" || !response || input.positiveAcceptanceSkipped) return undefined;
    const refusedInBody = envelopeError(input.model.op.api, response);
    if (response.status >= 200 && response.status < 300 && refusedInBody === undefined) return "";
    if (response.status >= 300 && response.status < 400 && !isErrorRedirect(response)) return "";
    // A path that names a resource may name one that does not exist: 404, or the envelope's error under 2xx.
    if (
      (response.status === 404 || (response.status < 300 && refusedInBody !== undefined)) &&
      input.model.op.path.includes("{")
    )
      return "";
    if (response.status >= 500) return undefined;
    const message =
      refusedInBody !== undefined
        ? `valid data was refused: ${refusedInBody} (status ${response.status})`
        : `valid data was refused with status ${response.status}${isErrorRedirect(response) ? ` (error redirect ${response.headers.location})` : ""}`;
    const assumption = assumedBodyProperty(input) ?? assumedParameter(input);
    return assumption === undefined ? message : assumptionBroken(input, message, assumption);
  },

  /** A list page does what its limit and page ask, and its envelope reports them (list-parameters.ts). */
  list_parameters_honoured(input) {
    if (input.expectation !== "valid") return undefined;
    return listParametersProblems(input.model.op.api, input.exchange);
  },

  /** What a seed reports only as seen together: a broken assumption, a warning unless --strict (list-parameters.ts). */
  seen_together(input) {
    const problems = seenTogetherProblems(input.model.op.api, input.model.op.operationId, input.exchange);
    const relation = PROFILES[input.model.op.api].seenTogether;
    return problems && relation ? assumptionBroken(input, problems, relation.assumption) : problems;
  },

  /** A secured operation must refuse a request without credentials and one with wrong credentials. */
  ignored_auth(input) {
    const response = input.exchange.response;
    if (input.expectation !== "unauthenticated" || !response) return undefined;
    if (response.status >= 500) return undefined;
    if (isRefusal(input.model.op.api, response)) return "";
    return `a request with ${input.exchange.request.headers.Authorization || input.exchange.request.headers["x-seller-api-key"] ? "wrong" : "no"} credentials was answered with status ${response.status}`;
  },
};

/** Whether a body validates against one of the operation's documented error responses (4XX, 5XX, default). */
function matchesDocumentedError(input: ResponseCheckInput, body: unknown): boolean {
  const api = input.model.op.api;
  const responses = (input.model.op.operation.responses ?? {}) as Record<string, unknown>;
  return Object.keys(responses)
    .filter((key) => key === "default" || /^[45]/.test(key))
    .some((key) => {
      const pointer = `${input.model.op.pointer}/responses/${pointerSegment(key)}`;
      const content = resolveAt(api, pointer).content ?? {};
      const mediaType = Object.keys(content).find((m) => m.includes("json"));
      return (
        mediaType !== undefined &&
        content[mediaType]?.schema !== undefined &&
        validateAt(api, `${pointer}/content/${pointerSegment(mediaType)}/schema`, body).valid
      );
    });
}

export const RESPONSE_CHECK_NAMES = Object.keys(RESPONSE_CHECKS);

export function isErrorRedirect(response: RecordedResponse): boolean {
  const location = response.headers.location;
  if (response.status < 300 || response.status >= 400 || !location) return false;
  try {
    return new URL(location, "http://relative.invalid").searchParams.has("error");
  } catch {
    return false;
  }
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

/**
 * The x-assumption of a top-level body property that carries one itself, if the body schema has such a property:
 * where whether a field is required, or which values it takes, is our assumption (pay's createOrder), a provider
 * that refuses a body for it breaks that assumption, not its own word. A body-level assumption alone does not
 * count, so a provider that makes a documented optional field mandatory (catalog's thumbnail) still fails.
 */
function assumedBodyProperty(input: ResponseCheckInput): string | undefined {
  const bodyPointer = input.model.body?.pointer;
  if (!bodyPointer || input.exchange.request.body === undefined) return undefined;
  return propertiesWith(input.model.op.api, bodyPointer, "x-assumption").values().next().value;
}

/**
 * The x-assumption of a query parameter the request carries with another value than its examples, on the parameter
 * or its schema: where a parameter's range is our assumption (links' `limit` has no maximum the seed shows), a
 * provider that refuses a value in it breaks that assumption, not its own word. An example value is not the cause.
 */
function assumedParameter(input: ResponseCheckInput): string | undefined {
  const api = input.model.op.api;
  const query = new URL(input.exchange.request.url).searchParams;
  for (const parameter of input.model.parameters) {
    const sent = parameter.in === "query" ? query.get(parameter.name) : null;
    if (sent === null || parameter.examples.some((example) => String(example) === sent)) continue;
    for (const node of [resolveAt(api, parameter.pointer), resolveAt(api, `${parameter.pointer}/schema`)] as Array<
      Record<string, unknown>
    >) {
      if (typeof node["x-assumption"] === "string") return node["x-assumption"];
    }
  }
  return undefined;
}

/** Runs the selected response checks on one exchange. Returns [check, outcome] for each applicable check. */
export function runResponseChecks(
  input: ResponseCheckInput,
  selected: ReadonlySet<string>,
  starting?: (check: string) => void,
): Array<[string, string]> {
  const results: Array<[string, string]> = [];
  for (const [name, check] of Object.entries(RESPONSE_CHECKS)) {
    if (!selected.has(name)) continue;
    starting?.(name);
    const outcome = check(input);
    if (outcome !== undefined) results.push([name, outcome]);
  }
  return results;
}

/**
 * Follows the X-RateLimit-* headers across consecutive responses (the runner sends one request at a time). Servers
 * count per key, so each credential (including none and a wrong one) is followed on its own.
 */
export class RateLimitConsistency {
  private readonly previous = new Map<string, { remaining: number; reset: number }>();
  constructor(
    private readonly config: {
      limit: number;
      windowSeconds: number;
      headers: { limit: string; remaining: string; reset: string };
    },
    /** The contract's x-assumption on the reset's unit (Unix seconds), if it carries one. */
    private readonly unitAssumption?: string,
  ) {}

  /**
   * The failure for this exchange, "" when consistent, `undefined` when it carries no rate-limit headers. A reset in
   * another unit than the assumed one breaks that assumption: a warning told to `judge.note`, a failure under --strict.
   */
  observe(exchange: Exchange, judge: Pick<ResponseCheckInput, "strict" | "note"> = {}): string | undefined {
    const response = exchange.response;
    if (!response) return undefined;
    const read = (name: string) => {
      const value = response.headers[name.toLowerCase()];
      return value !== undefined && /^\s*-?\d+\s*$/.test(value) ? Number(value) : undefined;
    };
    const limit = read(this.config.headers.limit);
    const remaining = read(this.config.headers.remaining);
    const reset = read(this.config.headers.reset);
    if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
    const problems: string[] = [];
    if (limit !== this.config.limit)
      problems.push(`${this.config.headers.limit} is ${limit}, the contract's cap is ${this.config.limit}`);
    if (remaining > limit || remaining < 0)
      problems.push(`${this.config.headers.remaining} ${remaining} is outside 0..${limit}`);
    // The unit is our assumption (the seeds say "timestamp"): a reset in seconds from now or in Unix milliseconds
    // breaks it (a warning), and the window is judged in the server's own unit.
    const resetAt = resetAtOf(reset, exchange.receivedAt);
    if (resetAt !== reset * 1000 && this.unitAssumption !== undefined) {
      const unit = resetAt > reset * 1000 ? "seconds from now" : "Unix milliseconds";
      const broken = assumptionBroken(
        judge,
        `${this.config.headers.reset} ${reset} reads as ${unit}, not Unix seconds`,
        this.unitAssumption,
      );
      if (broken) problems.push(broken);
    }
    const nowSeconds = exchange.receivedAt / 1000;
    if (resetAt / 1000 + 1 < nowSeconds)
      problems.push(`${this.config.headers.reset} ${reset} is in the past (now ${Math.floor(nowSeconds)})`);
    else if (resetAt / 1000 > nowSeconds + this.config.windowSeconds + 5)
      problems.push(
        `${this.config.headers.reset} ${reset} is more than one window (${this.config.windowSeconds}s) ahead`,
      );
    // Servers count per key; recorded traffic (--har, contracts proxy) spells header names in any case.
    const request = exchange.request;
    const key = headerOf(request, "authorization") ?? headerOf(request, "x-seller-api-key") ?? "(no credentials)";
    const previous = this.previous.get(key);
    if (previous && previous.reset === reset && remaining >= previous.remaining) {
      problems.push(
        `${this.config.headers.remaining} did not count down within one window (${previous.remaining} then ${remaining}, same reset ${reset}, same credentials)`,
      );
    }
    this.previous.set(key, { remaining, reset });
    return problems.join("; ");
  }
}
