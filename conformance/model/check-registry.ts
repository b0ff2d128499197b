// The registry of checks: every check the runner knows, by name, with what it catches, the section of a seed or a
// standard it enforces, and what it judges: the APIs, the plan items' expectations (`cases`), the steps across
// operations (`steps`), every exchange on arrival (`onArrival`) or recorded traffic only. A name outside it does not
// compile (`CheckName`); the plan's table of which checks judge an item is read from here (checksJudging), and so
// are --check, --list-checks and the conform reference. Where each is implemented, by what it judges: the response
// checks in judge/response-checks.ts (typed by the names of this registry), the arrival checks in judge/judge.ts, the
// checks of the steps' and flows' scenarios in judge/step-scenarios.ts and judge/identity-scenarios.ts.
import type { ApiName } from "../../lib/contract/index.js";
import { IDENTITY_CHECK_ENTRIES } from "./identity-check-registry.js";
import type { PlanExpectation, StepName } from "./plan.js";

export interface CheckEntry {
  /** What the check catches, one sentence. */
  catches: string;
  /** The section of the seed or the standard it holds a provider to. */
  enforces: string;
  /** Only these APIs (all when absent). */
  apis?: readonly ApiName[];
  /** Needs --allow-writes. */
  writes?: boolean;
  /** The expectations of the operations' plan items whose exchanges it judges. */
  cases?: readonly PlanExpectation[];
  /** Judged by the judge as each exchange arrives (any item, any step), not for what its case expected. */
  onArrival?: boolean;
  /** The steps across operations whose scenarios it judges. */
  steps?: readonly StepName[];
  /** Judges recorded traffic only (--har, --from-json, contracts proxy): an active run does not run it. */
  recordedOnly?: boolean;
}

/** The expectations of every plan item of one operation. */
const EVERY_CASE = ["accept", "refuse", "refuse credentials"] as const satisfies readonly PlanExpectation[];

export const CHECKS = {
  not_a_server_error: {
    cases: EVERY_CASE,
    enforces: "RFC 9110 §15.6: a 5xx is the server failing a request; no seed documents one",
    catches: "a 5xx status or no response at all (connection reset, timeout) for any request.",
  },
  status_code_conformance: {
    cases: EVERY_CASE,
    enforces: "the statuses each seed's Endpoints and Errors sections document, as the contract encodes them",
    catches:
      "a status code the operation does not document (neither exactly, nor as a range such as 4XX, nor under default); one of the class of a code marked x-assumption (201 where 200 is assumed) is a warning, a failure under --strict.",
  },
  content_type_conformance: {
    cases: EVERY_CASE,
    enforces: "RFC 9110 §8.3 and the media types the contract documents per status",
    catches:
      "a body whose Content-Type is not one of the media types documented for that status, or a missing Content-Type.",
  },
  response_schema_conformance: {
    cases: EVERY_CASE,
    enforces: "each seed's Resources and their fields (the links Response envelope, the pay and catalog objects)",
    catches:
      "a body that does not validate against the documented schema of its status and media type (quirks included), or JSON that does not parse.",
  },
  response_headers_conformance: {
    cases: EVERY_CASE,
    enforces:
      "links seed, Limits (X-RateLimit-*); RFC 6749 §5.1 (Cache-Control: no-store); RFC 6750 §3 (WWW-Authenticate)",
    catches:
      "a documented required response header that is missing (the X-RateLimit-* headers on links, Cache-Control on tokens, WWW-Authenticate on userinfo errors) or whose value breaks its schema.",
  },
  negative_data_rejection: {
    cases: ["refuse"],
    enforces: "each seed's Errors section, where the contract says the provider refuses (x-provider-refuses)",
    catches:
      "a request the contract forbids (wrong type, missing required field or parameter, out-of-range value, pattern or enum violation, undeclared property, malformed body) that is not refused (HTTP >= 400, the error envelope, or an error redirect) where the contract says the provider refuses it (x-provider-refuses); elsewhere an accepted invalid request is an observation.",
  },
  positive_data_acceptance: {
    cases: ["accept"],
    enforces: "each seed's Endpoints and fields: what a request may carry",
    catches:
      "a request the contract allows (examples, boundary values, random valid data) that is refused; 404 is accepted where the path names a resource that may not exist.",
  },
  ignored_auth: {
    cases: ["refuse credentials"],
    enforces: "each seed's Authentication section",
    catches:
      "a secured operation that answers a request without credentials, or with wrong credentials (a wrong key, token or signature), with anything but a refusal (HTTP >= 400 or the error envelope).",
  },
  use_after_free: {
    apis: ["links"],
    writes: true,
    steps: ["sequence"],
    enforces: "links seed, Endpoints (the deletes) and States and transitions",
    catches: "a resource that still answers (update or list) after its delete succeeded.",
  },
  ensure_resource_availability: {
    apis: ["links", "pay"],
    writes: true,
    steps: ["sequence"],
    enforces: "links seed, Endpoints (the lists); commerce seed, the payment gateway's order list",
    catches:
      "a resource whose creation succeeded but that does not appear where the contract lists it (links lists, the pay order list).",
  },
  created_values_echoed: {
    apis: ["links", "catalog", "pay"],
    writes: true,
    steps: ["sequence"],
    enforces: "each seed's Resources and their fields: a creation returns the resource it made",
    catches:
      "a created resource whose creation response or list entry shows a field with another value than was sent (fields of the same name and type, or named by the contract's `x-echoes`; not those marked `x-not-echoed`).",
  },
  idempotency: {
    apis: ["catalog"],
    writes: true,
    steps: ["sequence"],
    enforces: "commerce seed, Seller catalog API: writes with an Idempotency-Key",
    catches: "two product creations with the same Idempotency-Key that do not return the same product.",
  },
  nonce_replay: {
    apis: ["pay"],
    steps: ["nonce replay"],
    enforces: "commerce seed, Authentication: the payment gateway's signed requests with a nonce",
    catches:
      "a signed request whose nonce was already used that is not refused: the same request again (a read, and with --allow-writes the order creation), or another operation with that nonce.",
  },
  unsupported_method: {
    steps: ["unsupported methods"],
    enforces:
      "RFC 9110 §15.5.6; the links seed's Response envelope on every response (x-every-response); pay (x-undocumented-methods-refused)",
    catches:
      "a method that a path does not document (GET, or with --allow-writes PATCH) answered with a server error or no response, with a body that is not what the contract promises of every response (x-every-response: links, JSON), or with a success where the contract says the provider refuses it (x-undocumented-methods-refused: pay); elsewhere a success is an observation (RFC 9110 requires no 405).",
  },
  allow_header: {
    steps: ["unsupported methods"],
    enforces: "RFC 9110 §10.2.1 and §15.5.6",
    catches:
      "a 405 to the unsupported-method probe without an Allow header, or whose Allow leaves out a method the path documents or lists the refused one (RFC 9110 §10.2.1, §15.5.6).",
  },
  max_response_time: {
    cases: EVERY_CASE,
    onArrival: true,
    enforces: "the run's --max-response-time: no seed states a response time",
    catches: "with --max-response-time <ms>: a response that took longer.",
  },
  scope_enforcement: {
    apis: ["catalog"],
    steps: ["scopes"],
    enforces: "commerce seed, Authentication: the API key's scopes",
    catches:
      "with --read-only-api-key: a write that a key without its scope can call, a refusal that is not 403 or whose body does not name the missing scope, or a read that the narrower key is refused.",
  },
  rate_limit_headers_consistent: {
    cases: EVERY_CASE,
    apis: ["links"],
    onArrival: true,
    enforces: "links seed, Limits: 30 requests per minute and the X-RateLimit-* headers",
    catches:
      "X-RateLimit-Limit differing from the contract's cap, X-RateLimit-Remaining not counting down within a window or exceeding the limit, X-RateLimit-Reset already past when the request was sent, or more than a window ahead.",
  },
  list_parameters_honoured: {
    apis: ["links"],
    cases: ["accept"],
    steps: ["list pages"],
    enforces: "links seed, Pagination envelope: limit, page, currentpage, perpage",
    catches:
      "a list page that does not do what its query parameters ask (more rows than limit, a perpage above limit or below the rows listed) or a currentpage other than the page asked for (links seed: limit is results per page, page the current page number); each list is asked for page 2 with limit 1, with rows of the run's own added where writes are allowed, or page 2 is reported not reached.",
  },
  seen_together: {
    apis: ["pay"],
    cases: EVERY_CASE,
    enforces: "commerce seed, Payment gateway: an order's status and date_payed as the seed shows them (x-assumption)",
    catches:
      "a listed order whose status and date_payed are not as the seed has seen them together (status 0 with date_payed null, 1 with a timestamp): an x-assumption, so a warning unless --strict.",
  },
  update_visible_on_read: {
    apis: ["links"],
    writes: true,
    steps: ["sequence", "updates visible"],
    enforces: "links seed, Endpoints (the updates) and States and transitions",
    catches:
      "an update answered with success whose values the next read does not show (a domain or campaign update and its list; with --operation updateAccount, the account's e-mail address).",
  },
  ...IDENTITY_CHECK_ENTRIES,
  issued_token_accepted: {
    apis: ["identity"],
    recordedOnly: true,
    enforces: "RFC 6750 §3.1 and RFC 6749 §5.1 (expires_in)",
    catches:
      "in recorded traffic (--har, --from-json): an access token the provider issued that is refused with 401 before it expires (expires_in, else the JWT's exp), unless a logout or a second exchange of its code came between.",
  },
} as const satisfies Record<string, CheckEntry>;

export type CheckName = keyof typeof CHECKS;

/** The checks the judge runs on one exchange for what its case expected: judge/response-checks.ts has each. */
export type ResponseCheckName = {
  [N in CheckName]: (typeof CHECKS)[N] extends { onArrival: true }
    ? never
    : (typeof CHECKS)[N] extends { cases: readonly unknown[] }
      ? N
      : never;
}[CheckName];

export interface CheckInfo extends CheckEntry {
  name: CheckName;
}

/** The checks in the registry's order (the order of --list-checks and of the reports). */
export const CHECK_LIST: readonly CheckInfo[] = Object.entries(CHECKS).map(([name, entry]) => ({
  name: name as CheckName,
  ...(entry as CheckEntry),
}));

export const CHECK_NAMES: readonly CheckName[] = CHECK_LIST.map((check) => check.name);

export const isCheckName = (name: string): name is CheckName => Object.hasOwn(CHECKS, name);

/** Whether a check applies to an API at all (`apis`), whatever the run's options. */
export function appliesTo(check: CheckEntry, api: ApiName): boolean {
  return check.apis === undefined || check.apis.includes(api);
}

/** The checks of the registry that judge a plan item of one operation with this expectation. */
export const checksJudging = (expect: PlanExpectation): CheckName[] =>
  CHECK_LIST.filter((check) => check.cases?.includes(expect)).map((check) => check.name);

/** The checks that judge the scenarios of a step across operations. */
export const checksOfStep = (step: StepName): CheckName[] =>
  CHECK_LIST.filter((check) => check.steps?.includes(step)).map((check) => check.name);
