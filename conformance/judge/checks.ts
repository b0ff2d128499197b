// The named checks and their selection (--check, --exclude-check). Each entry says what it catches; the table of
// docs/guide/conform-reference.md is this list. Where each is implemented: the response checks that judge every
// exchange in response-checks.ts, the rate-limit headers across exchanges in rate-limit-consistency.ts, the stateful
// ones in conformance/steps/, the OpenID Connect ones in conformance/identity/ (their list: identity-check-list.ts).
import { UsageError } from "../../lib/cli.js";
import type { ApiName } from "../../lib/contract/index.js";
import { IDENTITY_CHECKS } from "./identity-check-list.js";

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
    catches:
      "a method that a path does not document (GET, or with --allow-writes PATCH) answered with a server error or no response, with a body that is not what the contract promises of every response (x-every-response: links, JSON), or with a success where the contract says the provider refuses it (x-undocumented-methods-refused: pay); elsewhere a success is an observation (RFC 9110 requires no 405).",
  },
  {
    name: "allow_header",
    catches:
      "a 405 to the unsupported-method probe without an Allow header, or whose Allow leaves out a method the path documents or lists the refused one (RFC 9110 §10.2.1, §15.5.6).",
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
      "X-RateLimit-Limit differing from the contract's cap, X-RateLimit-Remaining not counting down within a window or exceeding the limit, X-RateLimit-Reset already past when the request was sent, or more than a window ahead.",
  },
  {
    name: "list_parameters_honoured",
    apis: ["links"],
    catches:
      "a list page that does not do what its query parameters ask (more rows than limit, a perpage above limit or below the rows listed) or a currentpage other than the page asked for (links seed: limit is results per page, page the current page number); each list is asked for page 2 with limit 1, with rows of the run's own added where writes are allowed, or page 2 is reported not reached.",
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
