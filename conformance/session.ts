/* eslint-disable max-lines -- over the cap since the code was formatted at 120 columns; to be split */
// One run against one deployment: sends cases (authenticated, rate-limited, recorded), runs the response checks on
// every exchange, keeps the tallies per check and operation, the failures with their reproductions, the gap
// observations and the resources the run created.
import { type ApiName, loadContract } from "../lib/contract/index.js";
import { operationOf, operationsOf } from "./lookup.js";
import {
  type AuthMode,
  type Credentials,
  newNonceSource,
  PROFILES,
  type ApiProfile,
  type PreparedRequest,
  type ResourceKind,
} from "./apis.js";
import { type ContractLink, linkedResources, readLinks } from "./links.js";
import { type OperationModel, operationModel, prepare, type RequestCase, type Violation } from "./cases.js";
import {
  type CheckNote,
  type Expectation,
  RateLimitConsistency,
  type ResponseCheckInput,
  runResponseChecks,
} from "./checks.js";
import { caseKind, CoverageLog } from "./coverage.js";
import { ObservationLog } from "./observations.js";
import { isSuccess } from "./contract-words.js";
import type { IdentityRunOptions } from "./sign-in/driver.js";
import { curlCommand, Secrets } from "./secrets.js";
import { type Exchange, RequestBudget, Transport } from "./transport.js";

/** Valid creations the run may make of resources it cannot delete, when --max-writes does not say. */
export const DEFAULT_MAX_WRITES = 5;

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
  rateLimit?: { limit: number; windowSeconds: number };
  timeoutMs: number;
  /** Upper bound of requests spent shrinking one failure. */
  maxShrinks: number;
  signal: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** identity only: the sign-in driver and the logout address (identity-checks.ts). */
  identity?: IdentityRunOptions;
  /** Breaking an `x-assumption` fails instead of warning. */
  strict?: boolean;
  /** Valid creations of resources the run cannot delete, in the whole run, the sequences' included (default 5). */
  maxWrites?: number;
  /** Every response must arrive within this many milliseconds (max_response_time). */
  maxResponseTimeMs?: number;
  /** Operations sent in parallel (--concurrency), only for APIs whose contract declares no rate limit. */
  concurrency?: number;
  /** Only this part of the work (--shard i/n): the paths whose position among the API's sorted paths is i-1 mod n. */
  shard?: { index: number; count: number };
  /** The secrets of the run, given when the caller redacts its own output with them (the CLI's reports): the run adds
   * the tokens the provider issues to it. Default: a new set with the credentials. */
  secrets?: Secrets;
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
  /** Where in the request the case breaks the contract (invalid cases), for the baseline key. */
  where?: string;
  /** Found by random data of this run's seed, not by an example, a boundary or a fixed step: another seed may not show it. */
  seeded?: boolean;
  /** Listed in the --baseline file: reported, not failing the run. */
  known?: boolean;
  /** The baseline key: check | operation | where | normalized reason. */
  key?: string;
}

interface RecordOptions {
  /** false while shrinking: the counts are those of the cases the run meant to send. */
  tally?: boolean;
  shrunk?: boolean;
  /** Where in the request an invalid case breaks the contract, for the baseline key. */
  where?: string;
  /** The case came from random data of this run's seed. */
  seeded?: boolean;
  /** The exchange the failing request depends on (the one that used its nonce first), reproduced before it. */
  sentBefore?: Exchange;
}

/** A broken `x-assumption`: reported with the assumption's reason, never a failure unless --strict. */
export interface WarningRecord {
  check: string;
  operationId: string;
  message: string;
  assumption: string;
  case: string;
  occurrences: number;
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
  /** What each operation was sent and what judged it (the report's coverage section). */
  readonly coverage = new CoverageLog();
  readonly nonces = newNonceSource();
  /** check → operationId → tally */
  readonly tallies = new Map<string, Map<string, Tally>>();
  readonly failures = new Map<string, FailureRecord>();
  /** check → why it did not run at all (it does not apply, or the run was not asked to write) */
  readonly skippedChecks = new Map<string, string>();
  /** check → why it applies but could not run (a missing credential, a failed prerequisite): fails the run. */
  readonly unrunChecks = new Map<string, string>();
  /** `check operationId assumption` → the warning */
  readonly warnings = new Map<string, WarningRecord>();
  /** operationId → why it did not run */
  readonly skippedOperations = new Map<string, string>();
  /** The contract declares a rate limit (x-rate-limit): requests go one at a time. */
  readonly rateLimited: boolean;
  /** --max-writes: valid creations of resources the run cannot delete, in the whole run. */
  readonly maxWrites: number;
  /** Of those, the ones the valid-data phases may still make: the rest are made, or kept for the sequences. */
  writesLeft: number;
  /** Kinds whose stateful sequence has one creation kept for it (keepWritesForSequences). */
  private readonly writesKept = new Set<string>();
  /** The contract's Link Objects, and the resources the stateful sequences follow (from the links, then the profile's). */
  readonly links: ContractLink[];
  readonly resources: ResourceKind[];
  /** An operation called once for the values its links give (conformance/link-values.ts) → its exchange. */
  readonly linkSources = new Map<string, Promise<{ requestCase: RequestCase; exchange: Exchange } | undefined>>();
  /** Successful updates of a resource without an id (the links account), in order: update_visible_on_read. */
  readonly acceptedUpdates = new Map<string, Array<{ exchange: Exchange; valid: boolean }>>();
  /** Every exchange the transport completed, in order: the JSON report records them (--from-json judges them again). */
  readonly exchanges: Exchange[] = [];
  /** What the run expected of each exchange it judged (valid, invalid, unauthenticated, any), for its JSON report. */
  readonly expectations = new WeakMap<Exchange, Expectation>();
  private readonly rateLimitConsistency: RateLimitConsistency | undefined;
  private readonly models = new Map<string, OperationModel>();

  constructor(readonly options: RunOptions) {
    this.profile = PROFILES[options.api];
    this.maxWrites = options.maxWrites ?? DEFAULT_MAX_WRITES;
    this.writesLeft = this.maxWrites;
    this.secrets = options.secrets ?? new Secrets(options.credentials);
    this.links = readLinks(loadContract(options.api).document);
    this.resources = [
      ...linkedResources(loadContract(options.api).document, (id) => this.isRead(id)),
      ...this.profile.resources,
    ];
    const declared = loadContract(options.api).document.info["x-rate-limit"] as
      | { limit: number; windowSeconds: number; headers: { limit: string; remaining: string; reset: string } }
      | undefined;
    const budget = options.rateLimit ?? declared;
    this.rateLimited = declared !== undefined;
    this.transport = new Transport({
      budget: budget ? new RequestBudget(budget.limit, budget.windowSeconds * 1000) : undefined,
      rateLimitHeaders: declared?.headers,
      ...(declared ? { rateLimitWindowMs: declared.windowSeconds * 1000 } : {}),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onExchange: (exchange) => {
        this.exchanges.push(exchange);
        options.onProgress?.({ type: "request", count: this.transport.requestCount });
      },
    });
    const unitAssumption =
      declared &&
      (
        loadContract(options.api).document.components?.headers?.[declared.headers.reset] as
          { schema?: { "x-assumption"?: string } } | undefined
      )?.schema?.["x-assumption"];
    this.rateLimitConsistency =
      declared && options.checks.has("rate_limit_headers_consistent")
        ? new RateLimitConsistency(declared, unitAssumption)
        : undefined;
  }

  /**
   * Whether this run's shard owns a path. Every operation of a path, the sequences that start there and the probes
   * of the path go to the same shard, so the union of the shards is the whole run.
   */
  ownsPath(path: string): boolean {
    const shard = this.options.shard;
    if (!shard) return true;
    const paths = [
      ...new Set(
        operationsOf(this.options.api)
          .filter((op) => !op.webhook)
          .map((op) => op.path),
      ),
    ].sort();
    return paths.indexOf(path) % shard.count === shard.index - 1;
  }

  /**
   * Keeps one creation of --max-writes, while any are left, for the sequence of each kind the run cannot delete: the
   * sequences run after the valid-data phases, which would otherwise spend them all. Pay's nonce_replay sends the
   * order sequence's creation again, which a faulty gateway turns into one more order: one more is kept for it.
   */
  keepWritesForSequences(kinds: ResourceKind[]): void {
    const replayed = this.options.api === "pay" && this.options.checks.has("nonce_replay");
    for (const kind of kinds) {
      for (const use of replayed ? [kind.name, `${kind.name} replay`] : [kind.name]) {
        if (!kind.undeletable || this.writesLeft === 0) continue;
        this.writesLeft -= 1;
        this.writesKept.add(use);
      }
    }
  }

  /** Whether a stateful sequence may create a resource of this kind: always when the run can delete it. */
  sequenceMayCreate(kind: ResourceKind): boolean {
    return !kind.undeletable || this.writesKept.has(kind.name);
  }

  /** Whether the sequence's creation of this kind may be replayed (the replay may create one). */
  creationMayBeReplayed(kind: ResourceKind): boolean {
    return !kind.undeletable || this.writesKept.has(`${kind.name} replay`);
  }

  /** Whether this run's shard owns an operation (by its path). */
  owns(operationId: string): boolean {
    return this.ownsPath(operationOf(this.options.api, operationId).path);
  }

  /** Reads: GET, HEAD, OPTIONS, and the POSTs the profile names as reads. */
  isRead(operationId: string): boolean {
    return (
      ["get", "head", "options"].includes(operationOf(this.options.api, operationId).method) ||
      operationId in this.profile.readOnly
    );
  }

  get aborted(): boolean {
    return this.options.signal.aborted;
  }

  model(operationId: string): OperationModel {
    let model = this.models.get(operationId);
    if (!model) {
      model = operationModel(operationOf(this.options.api, operationId));
      this.models.set(operationId, model);
    }
    return model;
  }

  isSecured(model: OperationModel): boolean {
    const security = (model.op.operation.security ?? loadContract(this.options.api).document.security ?? []) as Array<
      Record<string, unknown>
    >;
    return security.some((requirement) => Object.keys(requirement).length > 0);
  }

  /** Sends one case and returns the exchange (with the request as sent). */
  async send(
    model: OperationModel,
    requestCase: RequestCase,
    auth: AuthMode = "valid",
    probe?: (request: PreparedRequest) => void,
  ): Promise<Exchange> {
    const request = prepare(model, requestCase, this.options.baseUrl);
    probe?.(request); // a request the contract does not describe (another method): no observations about it
    await this.profile.finalize(model.op.operationId, request, auth, {
      credentials: this.options.credentials,
      nonces: this.nonces,
      registerSecret: (value, replacement) => this.secrets.add(value, replacement),
      secured: this.isSecured(model),
    });
    const exchange = await this.transport.send(request);
    if (exchange.interrupted) return exchange;
    this.coverage.sent(model.op.operationId, caseKind(requestCase, auth, probe !== undefined), exchange);
    const limit = this.options.maxResponseTimeMs;
    if (limit !== undefined && exchange.response) {
      this.record(
        "max_response_time",
        model.op.operationId,
        exchange.durationMs > limit ? `answered in ${exchange.durationMs} ms, above --max-response-time ${limit}` : "",
        exchange,
        requestCase.label,
      );
    }
    if (probe) return exchange;
    this.observations.observe(model, exchange);
    const operationId = model.op.operationId;
    if (this.rateLimitConsistency) {
      const outcome = this.rateLimitConsistency.observe(
        exchange,
        this.assumptionJudge("rate_limit_headers_consistent", operationId, "consecutive responses"),
      );
      if (outcome !== undefined)
        this.record("rate_limit_headers_consistent", operationId, outcome, exchange, "consecutive responses");
    }
    return exchange;
  }

  /**
   * Runs the response checks on an exchange and records them. Returns the failed checks with their messages.
   * `tally: false` while shrinking, so that the counts are those of the cases the run meant to send.
   */
  check(
    model: OperationModel,
    exchange: Exchange,
    expectation: Expectation,
    caseLabel: string,
    options: { tally?: boolean; violation?: Violation; seeded?: boolean } = {},
  ): Map<string, string> {
    if (exchange.interrupted) return new Map();
    if (!this.expectations.has(exchange)) this.expectations.set(exchange, expectation);
    this.noteAcceptedUpdate(model, exchange, expectation);
    const skipPositive = this.profile.noPositiveAcceptance(model.op.operationId, this.options.credentials);
    const operationId = model.op.operationId;
    let current = "";
    const note = (found: CheckNote) => {
      if (options.tally === false) return; // shrinking repeats what was already noted
      if (found.kind === "observation")
        this.observations.acceptedInvalid(operationId, this.secrets.redact(found.message));
      else this.warn(current, operationId, found.message, found.assumption ?? "", caseLabel);
    };
    const outcomes = runResponseChecks(
      {
        model,
        exchange,
        expectation,
        positiveAcceptanceSkipped: skipPositive,
        violation: options.violation,
        strict: this.options.strict,
        note,
      },
      this.options.checks,
      (name) => (current = name),
    );
    const failed = new Map<string, string>();
    const where = options.violation?.description.split(":")[0];
    for (const [check, outcome] of outcomes) {
      if (outcome) failed.set(check, outcome);
      if (options.tally !== false)
        this.record(check, model.op.operationId, outcome, exchange, caseLabel, { where, seeded: options.seeded });
    }
    return failed;
  }

  /** Keeps the accepted updates of a resource without an id, valid or not, in order (update_visible_on_read). */
  private noteAcceptedUpdate(model: OperationModel, exchange: Exchange, expectation: Expectation): void {
    const operationId = model.op.operationId;
    if (expectation !== "valid" && expectation !== "invalid") return;
    if (!this.profile.singletonUpdates?.some((s) => s.update === operationId)) return;
    if (!isSuccess(this.options.api, exchange.response)) return;
    const accepted = this.acceptedUpdates.get(operationId) ?? [];
    accepted.push({ exchange, valid: expectation === "valid" });
    this.acceptedUpdates.set(operationId, accepted);
  }

  /** How a check judges a broken `x-assumption` outside the response checks: a warning recorded here, a failure under --strict. */
  assumptionJudge(check: string, operationId: string, caseLabel: string): Pick<ResponseCheckInput, "strict" | "note"> {
    return {
      strict: this.options.strict,
      note: (found: CheckNote) => this.warn(check, operationId, found.message, found.assumption ?? "", caseLabel),
    };
  }

  /** Records a broken `x-assumption` (once per check, operation and assumption; later ones are counted). */
  warn(check: string, operationId: string, message: string, assumption: string, caseLabel: string): void {
    const key = `${check} ${operationId} ${assumption}`;
    const existing = this.warnings.get(key);
    if (existing) existing.occurrences += 1;
    else
      this.warnings.set(key, {
        check,
        operationId,
        message: this.secrets.redact(message),
        assumption,
        case: this.secrets.redact(caseLabel),
        occurrences: 1,
      });
  }

  /** A selected check that applies but cannot run: the run fails with this reason (unless the check is excluded). */
  cannotRun(check: string, reason: string): void {
    if (!this.options.checks.has(check) || this.unrunChecks.has(check)) return;
    this.unrunChecks.set(check, this.secrets.redact(reason));
  }

  /** Records one outcome ("" passed, text failed) of a check on an operation. */
  record(
    check: string,
    operationId: string,
    outcome: string,
    exchange: Exchange | undefined,
    caseLabel: string,
    options: RecordOptions = {},
  ): void {
    if (!this.options.checks.has(check) || exchange?.interrupted) return;
    if (options.tally !== false) {
      const byOperation = this.tallies.get(check) ?? new Map<string, Tally>();
      this.tallies.set(check, byOperation);
      const tally = byOperation.get(operationId) ?? { passed: 0, failed: 0 };
      byOperation.set(operationId, tally);
      if (outcome) tally.failed += 1;
      else tally.passed += 1;
      this.coverage.judged(operationId, check, exchange, !outcome);
    }
    if (!outcome) return;
    const key = `${check} ${operationId}`;
    const existing = this.failures.get(key);
    if (existing && !options.shrunk) {
      if (options.tally !== false) existing.occurrences += 1;
      return;
    }
    if (!existing)
      this.options.onProgress?.({ type: "failure", check, operationId, message: this.secrets.redact(outcome) });
    const record = this.failureRecord(check, operationId, outcome, exchange, caseLabel, {
      shrunk: Boolean(options.shrunk),
      occurrences: existing?.occurrences ?? 1,
      sentBefore: options.sentBefore,
    });
    const where = options.where ?? existing?.where;
    if (where) record.where = this.secrets.redact(where);
    // A shrunk case keeps the origin of the case that first failed.
    if (existing ? existing.seeded : options.seeded) record.seeded = true;
    this.failures.set(key, record);
  }

  private failureRecord(
    check: string,
    operationId: string,
    message: string,
    exchange: Exchange | undefined,
    caseLabel: string,
    { shrunk, occurrences, sentBefore }: { shrunk: boolean; occurrences: number; sentBefore?: Exchange },
  ): FailureRecord {
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
        url: this.secrets.redactSent(request.url),
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, this.secrets.redactSent(v)])),
        ...(request.body !== undefined ? { body: this.secrets.redactSent(request.body) } : {}),
      },
      // A replay is reproduced by sending the same request twice, or the request that used the nonce first and then this one.
      curl: curlCommand(
        request,
        this.secrets,
        sentBefore ? { sentBefore: sentBefore.request } : { times: check === "nonce_replay" ? 2 : 1 },
      ),
    };
    if (exchange?.response) {
      record.response = {
        status: exchange.response.status,
        headers: Object.fromEntries(Object.entries(exchange.response.headers).map(([k, v]) => [k, redact(v)])),
        body: redact(exchange.response.text.slice(0, 4000)),
      };
    }
    // A transport or browser error can quote the whole URL, and with it a token the provider issued in this run.
    if (exchange?.error) record.error = redact(exchange.error);
    return record;
  }
}
