// What a run knows before it sends anything, and only that: its options and the facts read once from the contract
// (the API's profile, Link Objects, resource kinds, rate limit, operation models, shard ownership). Read-only inputs
// and caches; every stage reads it, none writes to it. The secrets grow as the provider issues tokens, so that the
// output is redacted of them too.
import { type ApiName, loadContract } from "../lib/contract/index.js";
import type { CheckName } from "./model/check-registry.js";
import type { FailureRecord } from "./report/ledger.js";
import { type ApiProfile, type Credentials, PROFILES, type ResourceKind } from "./apis.js";
import { type ContractLink, linkedResources, readLinks } from "./contract/links.js";
import { operationOf, operationsOf } from "./contract/lookup.js";
import { operationModel } from "./plan/cases.js";
import { type OperationModel } from "./model/cases.js";
import { Secrets } from "./report/secrets.js";
import type { NonceMode } from "./send/nonces.js";
import type { IdentityRunOptions } from "./sign-in/driver.js";

export interface RunOptions {
  api: ApiName;
  baseUrl: string;
  credentials: Credentials;
  maxExamples: number;
  seed: number;
  /** operationIds to run; all when empty. */
  operations: string[];
  checks: ReadonlySet<CheckName>;
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
  /** How pay's nonces are numbered (--nonce); seconds when absent. */
  nonce?: NonceMode;
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
  /** An item of the plan starts (`itemId`: the item, for an operation's own; a step's phase names the step). */
  | { type: "operation"; operationId: string; phase: string; itemId?: number }
  | { type: "request"; count: number }
  /**
   * The plan is made: its cases, the requests they are expected to send, the budget's cap on requests (undefined:
   * none) and the rate limit's interval between requests (undefined: none), for the expected duration.
   */
  | { type: "plan"; cases: number; requests: number; maxRequests?: number; msPerRequest?: number }
  /** A failure not recorded before (redacted, with its cause's key). */
  | { type: "failure"; failure: FailureRecord };

/**
 * What judging needs to know, and only that: the API, the selected checks, --strict, the run's credentials, the
 * contract's facts and the secrets to keep out of every output (ContractFacts below).
 */
export interface JudgeContext {
  readonly options: Pick<
    RunOptions,
    "api" | "baseUrl" | "checks" | "strict" | "maxResponseTimeMs" | "credentials" | "allowWrites"
  >;
  readonly profile: ApiProfile;
  readonly secrets: Secrets;
  readonly declaredRateLimit: DeclaredRateLimit | undefined;
  model(operationId: string): OperationModel;
}

/**
 * What judging reads of an API's contract: the profile, the declared rate limit and the operation models, each read
 * once. A run's context is one; a passive run over recorded traffic judges with one of its own (passive/judge.ts),
 * with no seed, budget or writes, since it sends nothing.
 */
export class ContractFacts implements JudgeContext {
  readonly profile: ApiProfile;
  /** The contract's x-rate-limit, if it declares one: requests then go one at a time. */
  readonly declaredRateLimit: DeclaredRateLimit | undefined;
  private readonly models = new Map<string, OperationModel>();

  constructor(
    readonly options: JudgeContext["options"],
    readonly secrets: Secrets,
  ) {
    this.profile = PROFILES[options.api];
    this.declaredRateLimit = loadContract(options.api).document.info["x-rate-limit"] as DeclaredRateLimit | undefined;
  }

  model(operationId: string): OperationModel {
    let model = this.models.get(operationId);
    if (!model) {
      model = operationModel(operationOf(this.options.api, operationId));
      this.models.set(operationId, model);
    }
    return model;
  }
}

/** The contract's x-rate-limit (info), when it declares one. */
export interface DeclaredRateLimit {
  limit: number;
  windowSeconds: number;
  headers: { limit: string; remaining: string; reset: string };
}

export class RunContext extends ContractFacts {
  declare readonly options: RunOptions;
  /** The contract's Link Objects. */
  readonly links: ContractLink[];
  /** The resources the stateful sequences follow: from the links, then the profile's. */
  readonly resources: ResourceKind[];

  constructor(options: RunOptions) {
    super(options, options.secrets ?? new Secrets(options.credentials));
    const document = loadContract(options.api).document;
    this.links = readLinks(document);
    this.resources = [...linkedResources(document, (id) => this.isRead(id)), ...this.profile.resources];
  }

  /** The contract declares a rate limit (x-rate-limit): requests go one at a time. */
  get rateLimited(): boolean {
    return this.declaredRateLimit !== undefined;
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

  isSecured(model: OperationModel): boolean {
    const security = (model.op.operation.security ?? loadContract(this.options.api).document.security ?? []) as Array<
      Record<string, unknown>
    >;
    return security.some((requirement) => Object.keys(requirement).length > 0);
  }
}
