// One run against one deployment: sends cases (authenticated, rate-limited, recorded), runs the response checks on
// every exchange, keeps the tallies per check and operation, the failures with their reproductions, the gap
// observations and the resources the run created.
import { findOperation, loadBundle, type ApiName } from "../lib/openapi.js";
import { type AuthMode, type Credentials, newNonceSource, PROFILES, type ApiProfile } from "./apis.js";
import { type OperationModel, operationModel, prepare, type RequestCase } from "./cases.js";
import { type Expectation, RateLimitConsistency, runResponseChecks } from "./checks.js";
import { ObservationLog } from "./observations.js";
import type { IdentityRunOptions } from "./sign-in/driver.js";
import { curlCommand, Secrets } from "./secrets.js";
import { type Exchange, RequestBudget, Transport } from "./transport.js";

export interface RunOptions {
  api: ApiName;
  baseUrl: string;
  credentials: Credentials;
  maxExamples: number;
  seed: number;
  /** operationIds to run; all when empty. */
  operations: string[];
  checks: ReadonlySet<string>;
  allowWrites: boolean;
  /** From --rate-limit; the contract's x-rate-limit otherwise. */
  rateLimit?: { limit: number; windowMs: number };
  timeoutMs: number;
  /** Upper bound of requests spent shrinking one failure. */
  maxShrinks: number;
  signal: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** identity only: the sign-in driver and the logout address (identity-checks.ts). */
  identity?: IdentityRunOptions;
}

export type ProgressEvent =
  | { type: "operation"; operationId: string; phase: string }
  | { type: "request"; count: number }
  | { type: "failure"; check: string; operationId: string; message: string };

export interface FailureRecord {
  check: string;
  operationId: string;
  message: string;
  /** What the failing case was: `example ...`, `random valid data`, the mutation, `no credentials`, a sequence step. */
  case: string;
  shrunk: boolean;
  occurrences: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
  curl: string;
}

export interface Tally {
  passed: number;
  failed: number;
}

export class Session {
  readonly profile: ApiProfile;
  readonly secrets: Secrets;
  readonly transport: Transport;
  readonly observations = new ObservationLog();
  readonly nonces = newNonceSource();
  /** check → operationId → tally */
  readonly tallies = new Map<string, Map<string, Tally>>();
  readonly failures = new Map<string, FailureRecord>();
  /** check → why it did not run at all */
  readonly skippedChecks = new Map<string, string>();
  /** operationId → why it did not run */
  readonly skippedOperations = new Map<string, string>();
  private readonly rateLimitConsistency: RateLimitConsistency | undefined;
  private readonly models = new Map<string, OperationModel>();

  constructor(readonly options: RunOptions) {
    this.profile = PROFILES[options.api];
    this.secrets = new Secrets(options.credentials);
    const declared = loadBundle(options.api).info["x-rate-limit"] as
      | { limit: number; windowSeconds: number; headers: { limit: string; remaining: string; reset: string } }
      | undefined;
    const budget = options.rateLimit ?? (declared ? { limit: declared.limit, windowMs: declared.windowSeconds * 1000 } : undefined);
    this.transport = new Transport({
      budget: budget ? new RequestBudget(budget.limit, budget.windowMs) : undefined,
      rateLimitHeaders: declared?.headers,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onExchange: () => options.onProgress?.({ type: "request", count: this.transport.requestCount }),
    });
    this.rateLimitConsistency = declared && options.checks.has("rate_limit_headers_consistent") ? new RateLimitConsistency(declared) : undefined;
  }

  get aborted(): boolean {
    return this.options.signal.aborted;
  }

  model(operationId: string): OperationModel {
    let model = this.models.get(operationId);
    if (!model) {
      model = operationModel(findOperation(this.options.api, operationId));
      this.models.set(operationId, model);
    }
    return model;
  }

  isSecured(model: OperationModel): boolean {
    const security = (model.op.operation.security ?? loadBundle(this.options.api).security ?? []) as Array<Record<string, unknown>>;
    return security.some((requirement) => Object.keys(requirement).length > 0);
  }

  /** Sends one case and returns the exchange (with the request as sent). */
  async send(model: OperationModel, requestCase: RequestCase, auth: AuthMode = "valid"): Promise<Exchange> {
    const request = prepare(model, requestCase, this.options.baseUrl);
    await this.profile.finalize(model.op.operationId, request, auth, {
      credentials: this.options.credentials,
      nonces: this.nonces,
      registerSecret: (value, replacement) => this.secrets.add(value, replacement),
      secured: this.isSecured(model),
    });
    const exchange = await this.transport.send(request);
    if (exchange.interrupted) return exchange;
    this.observations.observe(model, exchange);
    if (this.rateLimitConsistency) {
      const outcome = this.rateLimitConsistency.observe(exchange);
      if (outcome !== undefined) this.record("rate_limit_headers_consistent", model.op.operationId, outcome, exchange, "consecutive responses");
    }
    return exchange;
  }

  /**
   * Runs the response checks on an exchange and records them. Returns the failed checks with their messages.
   * `tally: false` while shrinking, so that the counts are those of the cases the run meant to send.
   */
  check(model: OperationModel, exchange: Exchange, expectation: Expectation, caseLabel: string, options: { tally?: boolean } = {}): Map<string, string> {
    if (exchange.interrupted) return new Map();
    const skipPositive = this.profile.noPositiveAcceptance(model.op.operationId, this.options.credentials);
    const outcomes = runResponseChecks({ model, exchange, expectation, positiveAcceptanceSkipped: skipPositive }, this.options.checks);
    const failed = new Map<string, string>();
    for (const [check, outcome] of outcomes) {
      if (outcome) failed.set(check, outcome);
      if (options.tally !== false) this.record(check, model.op.operationId, outcome, exchange, caseLabel);
    }
    return failed;
  }

  /** Records one outcome ("" passed, text failed) of a check on an operation. */
  record(check: string, operationId: string, outcome: string, exchange: Exchange | undefined, caseLabel: string, options: { tally?: boolean; shrunk?: boolean } = {}): void {
    if (!this.options.checks.has(check) || exchange?.interrupted) return;
    if (options.tally !== false) {
      const byOperation = this.tallies.get(check) ?? new Map<string, Tally>();
      this.tallies.set(check, byOperation);
      const tally = byOperation.get(operationId) ?? { passed: 0, failed: 0 };
      byOperation.set(operationId, tally);
      if (outcome) tally.failed += 1;
      else tally.passed += 1;
    }
    if (!outcome) return;
    const key = `${check} ${operationId}`;
    const existing = this.failures.get(key);
    if (existing && !options.shrunk) {
      if (options.tally !== false) existing.occurrences += 1;
      return;
    }
    if (!existing) this.options.onProgress?.({ type: "failure", check, operationId, message: this.secrets.redact(outcome) });
    this.failures.set(key, this.failureRecord(check, operationId, outcome, exchange, caseLabel, Boolean(options.shrunk), existing?.occurrences ?? 1));
  }

  private failureRecord(check: string, operationId: string, message: string, exchange: Exchange | undefined, caseLabel: string, shrunk: boolean, occurrences: number): FailureRecord {
    const redact = (text: string) => this.secrets.redact(text);
    const request = exchange?.request ?? { method: "-", url: this.options.baseUrl, headers: {} };
    const record: FailureRecord = {
      check,
      operationId,
      message: redact(message),
      case: redact(caseLabel),
      shrunk,
      occurrences,
      request: {
        method: request.method,
        url: redact(request.url),
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, redact(v)])),
        ...(request.body !== undefined ? { body: redact(request.body) } : {}),
      },
      curl: curlCommand(request, this.secrets, { times: check === "nonce_replay" ? 2 : 1 }),
    };
    if (exchange?.response) {
      record.response = {
        status: exchange.response.status,
        headers: Object.fromEntries(Object.entries(exchange.response.headers).map(([k, v]) => [k, redact(v)])),
        body: redact(exchange.response.text.slice(0, 4000)),
      };
    }
    if (exchange?.error) record.error = exchange.error;
    return record;
  }
}
