// One run against one deployment: what the run knows (its options, facts read from the contract, shard ownership,
// the write budget, the model cache) and how it sends a case (authenticated, rate-limited, within the request
// budget) and judges the exchange with the response checks. What it finds goes to the ledger (ledger.ts).
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import { operationOf, operationsOf } from "../contract/lookup.js";
import {
  type AuthMode,
  type Credentials,
  newNonceSource,
  PROFILES,
  type ApiProfile,
  type PreparedRequest,
  type ResourceKind,
} from "../apis.js";
import { type ContractLink, linkedResources, readLinks } from "../contract/links.js";
import { type OperationModel, operationModel, prepare, type RequestCase } from "../plan/cases.js";
import { RateLimitConsistency } from "../judge/rate-limit-consistency.js";
import type { Expectation } from "../judge/response-check-input.js";
import { caseKind, CoverageLog } from "../report/coverage.js";
import { ObservationLog } from "../judge/observations.js";
import type { IdentityRunOptions } from "../sign-in/driver.js";
import { judgeArrival } from "../judge/judge.js";
import { Ledger } from "../report/ledger.js";
import { Secrets } from "../report/secrets.js";
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
  /** --max-requests (Infinity: no cap, not even the default of a rate-limited contract). */
  maxRequests?: number;
  /** --max-duration, in milliseconds: no item starts that would end after it. */
  maxDurationMs?: number;
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

export class Session {
  readonly profile: ApiProfile;
  readonly secrets: Secrets;
  readonly transport: Transport;
  readonly observations = new ObservationLog();
  /** What the run found: every check's results, the failures with their reproductions, warnings (ledger.ts). */
  readonly ledger: Ledger;
  /** What each operation was sent and what judged it (the report's coverage section). */
  readonly coverage = new CoverageLog();
  readonly nonces = newNonceSource();
  /** check → why it did not run at all (it does not apply, or the run was not asked to write) */
  readonly skippedChecks = new Map<string, string>();
  /** operationId → why it did not run */
  readonly skippedOperations = new Map<string, string>();
  /** The contract declares a rate limit (x-rate-limit): requests go one at a time. */
  readonly rateLimited: boolean;
  /** The contract's x-rate-limit, if it declares one. */
  readonly declaredRateLimit: { limit: number; windowSeconds: number } | undefined;
  /** --max-writes: valid creations of resources the run cannot delete, in the whole run. */
  readonly maxWrites: number;
  /** Of those, the ones the valid-data phases may still make: the rest are made, or kept for the sequences. */
  writesLeft: number;
  /** Kinds whose stateful sequence has one creation kept for it (keepWritesForSequences). */
  private readonly writesKept = new Set<string>();
  /**
   * The contract's Link Objects, and the resources the stateful sequences follow (from the links, then the profile's).
   */
  readonly links: ContractLink[];
  readonly resources: ResourceKind[];
  /** An operation called once for the values its links give (conformance/send/link-values.ts) → its exchange. */
  readonly linkSources = new Map<string, Promise<{ requestCase: RequestCase; exchange: Exchange } | undefined>>();
  /** Successful updates of a resource without an id (the links account), in order: update_visible_on_read. */
  readonly acceptedUpdates = new Map<string, Array<{ exchange: Exchange; valid: boolean }>>();
  /** Every exchange the transport completed, in order: the JSON report records them (--from-json judges them again). */
  readonly exchanges: Exchange[] = [];
  /** What the run expected of each exchange it judged (valid, invalid, unauthenticated, any), for its JSON report. */
  readonly expectations = new WeakMap<Exchange, Expectation>();
  /** rate_limit_headers_consistent across consecutive responses (judge.ts), when the contract declares a limit. */
  readonly rateLimitConsistency: RateLimitConsistency | undefined;
  private readonly models = new Map<string, OperationModel>();

  constructor(readonly options: RunOptions) {
    this.profile = PROFILES[options.api];
    this.maxWrites = options.maxWrites ?? DEFAULT_MAX_WRITES;
    this.writesLeft = this.maxWrites;
    this.secrets = options.secrets ?? new Secrets(options.credentials);
    this.ledger = new Ledger(options, this.secrets, this.coverage, () => this.transport.capReached);
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
    this.declaredRateLimit = declared && { limit: declared.limit, windowSeconds: declared.windowSeconds };
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

  /** Interrupted (Ctrl-C), or the request budget is spent: nothing more is sent before the cleanup. */
  get aborted(): boolean {
    return this.options.signal.aborted || this.transport.capReached;
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
    judgeArrival(this, model, exchange, requestCase.label, probe !== undefined);
    return exchange;
  }
}
