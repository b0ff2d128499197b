// The passive judge: recorded exchanges (a HAR file, a previous report, the proxy's traffic) judged one at a time by
// the same response checks and verdict rules as an active run (conformance/judge/judge.ts), plus the checks only a
// history of real traffic allows (judge/history.ts). Nothing is sent. Every exchange either reaches an operation or is
// listed as a gap with its reason; the result is the same RunReport as an active run's.
//
// The API (stable; `contracts proxy` builds on it):
//   const judge = createPassiveJudge("links", { baseUrl, source: "proxy" });
//   const { operationId, gap, failures } = judge.judge(exchange);   // one exchange, as soon as it is complete
//   judge.gap({ method, url, reason });                             // an entry that is no exchange at all
//   const report = judge.report();                                   // a RunReport: console, JSON, JUnit, HTML
//   judge.redact(text);                                              // every output goes through it
import { API_NAMES, type ApiName, loadContract } from "../../lib/contract/index.js";
import { CHECK_LIST, CHECK_NAMES, type CheckName, appliesTo } from "../model/check-registry.js";
import type { Decision } from "../model/finding.js";
import type { Expectation } from "../model/cases.js";
import { RESPONSE_CHECK_NAMES } from "../judge/response-checks.js";
import { buildReport, type CheckResult, type ReportContext, type RunReport } from "../report/report.js";
import { Secrets } from "../report/secrets.js";
import { ContractFacts, type RunOptions } from "../context.js";
import { Judge } from "../judge/judge.js";
import { Ledger } from "../report/ledger.js";
import type { Exchange } from "../model/exchange.js";
import { type Credentials, headerOf } from "../apis.js";
import { judgeRequest } from "./expectation.js";
import { CredentialTrust } from "./credentials.js";
import { type HistoryCheck, historyChecks } from "../judge/history.js";
import { TrafficSecrets } from "../report/traffic-secrets.js";
import { recordedExchange } from "../report/recorded-exchanges.js";
import { ELSEWHERE, type PassiveGap } from "../model/recorded-traffic.js";

export type { PassiveGap, PassiveSummary, RecordedExchange } from "../model/recorded-traffic.js";

export interface PassiveJudgeOptions {
  /**
   * Where the API is deployed; exchanges elsewhere are gaps. Absent: the first exchange that matches an operation sets
   * it.
   */
  baseUrl?: string;
  /** Where the exchanges come from, for the report: `HAR file traffic.har`, `proxy`. */
  source: string;
  /** The selected checks (--check, --exclude-check); all by default. */
  checks?: ReadonlySet<CheckName>;
  /** A broken x-assumption fails instead of warning. */
  strict?: boolean;
  /** The run's secrets (configured credentials); the secrets found in the traffic are added to it. */
  secrets?: Secrets;
  /**
   * The API's configured credentials: a request carrying another is judged by its response's shape only. Without
   * them, a credential is trusted once the provider accepted a request carrying it.
   */
  credentials?: Credentials;
  /** Keep the exchanges, redacted, in the report (for --from-json); default true. */
  keepExchanges?: boolean;
  /** Told of each new failure as it is found (the proxy prints them live); the message is redacted. */
  onFailure?: (failure: { check: CheckName; operationId: string; message: string }) => void;
}

/** What judging one exchange found: its operation, or the gap it is; the checks it failed (messages redacted). */
export interface JudgedExchange {
  operationId?: string;
  gap?: PassiveGap;
  failures: Array<{ check: CheckName; message: string }>;
}

export interface PassiveJudge {
  /**
   * Judges one complete exchange; `entry` is its position in the recording (1-based), for the gaps list;
   * `expected` is what an active run expected of it, read back from its report (--from-json).
   */
  judge(exchange: Exchange, entry?: number, expected?: Expectation): JudgedExchange;
  /**
   * Reads an exchange ahead of judging (a whole recording: --har, --from-json): a credential the provider accepted
   * anywhere in it is trusted from the first entry on. The proxy, judging live, learns them in order only.
   */
  learn(exchange: Exchange): void;
  /** Lists an entry of the recording that could not become an exchange (no response, unreadable). */
  gap(gap: PassiveGap): void;
  /** Notes a caveat on an exchange judged (or to be judged): a body recorded in base64, compressed or binary. */
  note(note: PassiveGap): void;
  /** The report of everything judged so far. */
  report(): RunReport;
  /** Replaces every secret seen so far (configured or found in the traffic), in every encoding. */
  redact(text: string): string;
  readonly secrets: Secrets;
}

/** The checks a passive run can judge: those of each response, and those of the history. */
const PASSIVE_CHECKS = new Set([
  ...RESPONSE_CHECK_NAMES,
  "nonce_replay",
  "idempotency",
  "rate_limit_headers_consistent",
  "issued_token_accepted",
]);

/**
 * The profile skips positive_data_acceptance where a valid request needs credentials the runner was not given
 * (identity's authorize and userinfo); recorded traffic carries its own, so only the one-time codes stay skipped.
 */
const RECORDED_CREDENTIALS = { clientId: "recorded", redirectUri: "recorded", accessToken: "recorded" };

/** The parts a passive run judges with: a context of recorded traffic, its ledger and the judge. Nothing sends. */
function passiveParts(
  api: ApiName,
  options: PassiveJudgeOptions,
  secrets: Secrets,
): { context: ContractFacts; ledger: Ledger; judge: Judge } {
  const checks = options.checks ?? new Set(CHECK_NAMES);
  const baseUrl = options.baseUrl ?? "";
  const { strict } = options;
  const context = new ContractFacts(
    { api, baseUrl, checks, strict, credentials: RECORDED_CREDENTIALS, allowWrites: false },
    secrets,
  );
  const onProgress: RunOptions["onProgress"] = (event) => {
    if (event.type === "failure") options.onFailure?.({ ...event.failure, check: event.failure.check as CheckName });
  };
  const ledger = new Ledger({ checks, baseUrl, onProgress }, secrets);
  const judge = new Judge(context, ledger);
  const skipped: Decision[] = [];
  const skip = (name: CheckName, reason: string) => skipped.push({ about: "check", name, decision: "skipped", reason });
  for (const check of CHECK_LIST) {
    if (!appliesTo(check, api)) skip(check.name, `does not apply to ${api}`);
    else if (check.name === "max_response_time")
      skip(check.name, "not judged on recorded traffic: its timings are the recording tool's");
    else if (!PASSIVE_CHECKS.has(check.name))
      skip(check.name, "sends requests of its own: a passive run judges recorded traffic only");
  }
  judge.decided(skipped);
  return { context, ledger, judge };
}

/** The base address an exchange's URL lies under, as `origin` + path prefix, or undefined. */
function under(url: URL, baseUrl: string): string | undefined {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/$/, "");
  if (url.origin !== base.origin || (prefix && !`${url.pathname}/`.startsWith(`${prefix}/`))) return undefined;
  return url.pathname.slice(prefix.length) || "/";
}

/** `; a request of pay (getBalance)` when the path is an operation of another API, else "". */
function otherApi(api: ApiName, method: string, url: URL): string {
  for (const other of API_NAMES) {
    const match = other === api ? undefined : loadContract(other).route(method, url.pathname);
    if (match) return `; a request of ${other} (${match.operation.operationId})`;
  }
  return "";
}

/** Why an exchange at the API's address matches no operation. */
function unmatchedReason(api: ApiName, method: string, path: string, exchange: Exchange): string {
  const allowed = loadContract(api).allowedMethods(path);
  if (method === "OPTIONS" && headerOf(exchange.request, "access-control-request-method"))
    return "a CORS preflight (OPTIONS), which the contract does not describe";
  if (allowed.length > 0)
    return `the contract has no ${method} at ${path} (it has ${allowed.map((m) => m.toUpperCase()).join(", ")})`;
  return `matches no operation of ${api}`;
}

export function createPassiveJudge(api: ApiName, options: PassiveJudgeOptions): PassiveJudge {
  return new PassiveRun(api, options);
}

class PassiveRun implements PassiveJudge {
  readonly secrets: Secrets;
  private readonly traffic: TrafficSecrets;
  private readonly context: ContractFacts;
  private readonly ledger: Ledger;
  private readonly verdicts: Judge;
  private readonly history: HistoryCheck[];
  private readonly trust: CredentialTrust;
  private readonly gaps: PassiveGap[] = [];
  private readonly notes: PassiveGap[] = [];
  private readonly kept: Exchange[] = [];
  private baseUrl: string | undefined;
  private entries = 0;
  private judged = 0;
  private first: number | undefined;
  private last: number | undefined;

  constructor(
    private readonly api: ApiName,
    private readonly options: PassiveJudgeOptions,
  ) {
    this.secrets = options.secrets ?? new Secrets({});
    this.traffic = new TrafficSecrets(this.secrets);
    ({ context: this.context, ledger: this.ledger, judge: this.verdicts } = passiveParts(api, options, this.secrets));
    this.history = historyChecks(api).filter((h) => this.context.options.checks.has(h.check));
    this.baseUrl = options.baseUrl?.replace(/\/$/, "");
    this.trust = new CredentialTrust(api, options.credentials ?? {});
  }

  redact(text: string): string {
    return this.secrets.redact(text);
  }

  learn(exchange: Exchange): void {
    if (this.trust.knowsCredentials || !URL.canParse(exchange.request.url)) return;
    const url = new URL(exchange.request.url);
    const path = this.baseUrl === undefined ? url.pathname : under(url, this.baseUrl);
    const match =
      path === undefined ? undefined : loadContract(this.api).route(exchange.request.method.toUpperCase(), path);
    if (match) this.trust.learn(this.context.model(match.operation.operationId), exchange);
  }

  gap(found: PassiveGap): void {
    this.entries += 1;
    this.listGap(found);
  }

  note(note: PassiveGap): void {
    this.notes.push({ ...note, url: this.secrets.redactSent(note.url), reason: this.secrets.redact(note.reason) });
  }

  private listGap(found: PassiveGap): PassiveGap {
    const listed = { ...found, url: this.secrets.redactSent(found.url), reason: this.secrets.redact(found.reason) };
    this.gaps.push(listed);
    return listed;
  }

  judge(exchange: Exchange, entry?: number, expected?: Expectation): JudgedExchange {
    this.entries += 1;
    this.traffic.register(exchange);
    const sentAt = exchange.receivedAt - exchange.durationMs;
    this.first = Math.min(this.first ?? sentAt, sentAt);
    this.last = Math.max(this.last ?? exchange.receivedAt, exchange.receivedAt);
    const method = exchange.request.method.toUpperCase();
    const listed = (reason: string): JudgedExchange => {
      const status = exchange.response ? { status: exchange.response.status } : {};
      return {
        gap: this.listGap({ ...(entry ? { entry } : {}), method, url: exchange.request.url, reason, ...status }),
        failures: [],
      };
    };
    if (!URL.canParse(exchange.request.url)) return listed("its URL is not an absolute URL");
    const url = new URL(exchange.request.url);
    const path = this.baseUrl === undefined ? url.pathname : under(url, this.baseUrl);
    if (path === undefined)
      return listed(
        `${ELSEWHERE}${this.api}'s ${this.secrets.redact(this.baseUrl!)}${otherApi(this.api, method, url)}`,
      );
    const match = loadContract(this.api).route(method, path);
    if (!match) return listed(unmatchedReason(this.api, method, path, exchange));
    this.baseUrl ??= url.origin;
    this.judged += 1;
    if (this.options.keepExchanges !== false) this.kept.push(exchange);
    return this.judgeMatched(match.operation.operationId, match.pathParams, exchange, entry, expected);
  }

  private judgeMatched(
    operationId: string,
    pathParams: Record<string, string>,
    exchange: Exchange,
    entry: number | undefined,
    expected: Expectation | undefined,
  ): JudgedExchange {
    const { context, verdicts } = this;
    const model = context.model(operationId);
    const request = judgeRequest(model, exchange.request, pathParams, expected);
    // A request the contract allows may still be one the history says need not be accepted (a nonce sent before):
    // its history check judges it, not positive_data_acceptance.
    const notValid = this.history.map((check) => check.notValid?.(exchange)).find((why) => why !== undefined);
    if (notValid !== undefined && request.expectation === "valid")
      Object.assign(request, { expectation: "any", label: `recorded request: ${notValid}` });
    // A wrong credential (mistyped, expired, revoked) looks like a right one: refusing it keeps the seeds.
    const untrusted = request.expectation === "valid" ? this.trust.untrustedReason(model, exchange) : undefined;
    if (untrusted !== undefined)
      Object.assign(request, { expectation: "any", label: `recorded request with ${untrusted}` });
    const kind = request.expectation === "unauthenticated" ? "no credentials" : "recorded traffic";
    verdicts.recorded(model, exchange, kind);
    const label = entry ? `${request.label} (entry ${entry})` : request.label;
    const failed = verdicts.exchange(model, exchange, request.expectation, label, {
      violation: request.violation,
    });
    const failures = [...failed].map(([check, message]) => ({ check, message: this.redact(message) }));
    for (const { check, message } of verdicts.history(this.history, operationId, exchange, label))
      failures.push({ check, message: this.redact(message) });
    return { operationId, failures };
  }

  /** positive_data_acceptance applied to nothing because no credential was trusted: said so, never a pass. */
  private untrustedOnly(check: CheckResult): CheckResult {
    if (check.name !== "positive_data_acceptance" || check.skipped === undefined || this.trust.untrusted === 0)
      return check;
    const credential = this.trust.knowsCredentials ? "the configured credential" : "a credential the provider accepted";
    return { ...check, skipped: `no recorded request the contract allows carried ${credential}` };
  }

  /** What the report states of the run: a recorded one, which has no seed, no cases of its own and writes nothing. */
  private recordedRun(): ReportContext {
    const { api, checks } = this.context.options;
    const options = {
      api,
      baseUrl: this.baseUrl ?? "",
      seed: 0,
      maxExamples: 0,
      allowWrites: false,
      operations: [],
      checks,
    };
    return { options, secrets: this.secrets, ownsPath: () => true };
  }

  report(): RunReport {
    const now = new Date();
    const built = buildReport(this.recordedRun(), this.ledger, {
      startedAt: this.first === undefined ? now : new Date(this.first),
      finishedAt: this.last === undefined ? now : new Date(this.last),
      interrupted: false,
      resources: [],
    });
    const redact = (text: string) => this.redact(text);
    const { entries, judged, gaps, notes } = this;
    return {
      ...built,
      checks: built.checks.map((check) => this.untrustedOnly(check)),
      baseUrl: redact(this.baseUrl ?? "(no exchange matched an operation)"),
      requests: judged,
      passive: { source: redact(this.options.source), entries, judged, gaps, ...(notes.length ? { notes } : {}) },
      ...(this.options.keepExchanges !== false
        ? { exchanges: this.kept.map((exchange) => recordedExchange(exchange, redact)) }
        : {}),
    };
  }
}
