// The ledger of a run, append-only: the verdicts (every check's result per operation, the failures with their
// reproductions, redacted, with a curl command that names environment variables, the broken assumptions), the
// decisions (checks and operations skipped or unable to run), the observations, the coverage and every exchange with
// what the run expected of it. Judging writes to it; the report is built from it alone (report.ts).
import type { Expectation } from "../judge/response-check-input.js";
import { DEFAULT_NONCE, shellNonce } from "../send/nonces.js";
import { ObservationLog } from "../judge/observations.js";
import type { Decision, Verdict } from "../model/finding.js";
import type { RunOptions } from "../context.js";
import type { Exchange } from "../send/transport.js";
import { CoverageLog } from "./coverage.js";
import { curlCommand, type Secrets } from "./secrets.js";

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
  /**
   * Found by random data of this run's seed, not by an example, a boundary or a fixed step: another seed may not show
   * it.
   */
  seeded?: boolean;
  /** Listed in the --baseline file: reported, not failing the run. */
  known?: boolean;
  /** Its cause (causes.ts), the baseline's key: check | where | normalized reason. */
  key?: string;
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

export class Ledger {
  /** check → operationId → tally */
  readonly tallies = new Map<string, Map<string, Tally>>();
  readonly failures = new Map<string, FailureRecord>();
  /** check → why it applies but could not run (a missing credential, a failed prerequisite): fails the run. */
  readonly unrunChecks = new Map<string, string>();
  /** `check operationId assumption` → the warning */
  readonly warnings = new Map<string, WarningRecord>();
  /** check → why it did not run at all (it does not apply, or the run was not asked to write) */
  readonly skippedChecks = new Map<string, string>();
  /** operationId → why it did not run, or which of its cases were not sent */
  readonly skippedOperations = new Map<string, string>();
  /** Extra fields and headers, undocumented statuses, accepted invalid data the provider never promised to refuse. */
  readonly observations = new ObservationLog();
  /** What each operation was sent and what judged it (the report's coverage section). */
  readonly coverage = new CoverageLog();
  /** Every exchange the transport completed, in order: the JSON report records them (--from-json judges them again). */
  readonly exchanges: Exchange[] = [];
  /** What the run expected of each exchange it judged (valid, invalid, unauthenticated, any), for its JSON report. */
  readonly expectations = new WeakMap<Exchange, Expectation>();

  constructor(
    private readonly options: Pick<RunOptions, "checks" | "onProgress" | "baseUrl" | "nonce">,
    private readonly secrets: Secrets,
    /** The request budget is spent: what it cut short is not reached, not unable to run. */
    private readonly budgetSpent: () => boolean,
  ) {}

  /** Adds what a check found. */
  add(verdict: Verdict): void {
    if (verdict.outcome === "warn")
      this.warn(verdict.check, verdict.operationId, verdict.message, verdict.assumption ?? "", verdict.case);
    else this.record(verdict);
  }

  /** Adds a check or an operation the run skipped or could not run. */
  decide(decision: Decision): void {
    if (decision.about === "operation") this.skippedOperations.set(decision.name, decision.reason);
    else if (decision.decision === "skipped") this.skippedChecks.set(decision.name, decision.reason);
    else this.cannotRun(decision.name, decision.reason);
  }

  /** What the run expected of an exchange it judged: the first judgment says (a shrink or a step may judge again). */
  expected(exchange: Exchange, expectation: Expectation): void {
    if (!this.expectations.has(exchange)) this.expectations.set(exchange, expectation);
  }

  /** Records a broken `x-assumption` (once per check, operation and assumption; later ones are counted). */
  private warn(check: string, operationId: string, message: string, assumption: string, caseLabel: string): void {
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
  private cannotRun(check: string, reason: string): void {
    // A step the spent budget cut short is not reached, which the report says; it did not fail to run.
    if (!this.options.checks.has(check) || this.unrunChecks.has(check) || this.budgetSpent()) return;
    this.unrunChecks.set(check, this.secrets.redact(reason));
  }

  /** Records one outcome (passed or failed) of a check on an operation. */
  private record(verdict: Verdict): void {
    const { check, operationId, exchange, case: caseLabel } = verdict;
    // A failure always says why; a pass carries no message.
    const outcome = verdict.outcome === "fail" ? verdict.message || `${check} failed` : "";
    if (!this.options.checks.has(check) || exchange?.interrupted) return;
    if (verdict.tally !== false) {
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
    if (existing && !verdict.shrunk) {
      if (verdict.tally !== false) existing.occurrences += 1;
      // A fixed case (an example, a boundary, a step) failing the same way: another seed shows it too.
      if (verdict.tally !== false && !verdict.seeded) delete existing.seeded;
      return;
    }
    if (!existing)
      this.options.onProgress?.({ type: "failure", check, operationId, message: this.secrets.redact(outcome) });
    const record = this.failureRecord(check, operationId, outcome, exchange, caseLabel, {
      shrunk: Boolean(verdict.shrunk),
      occurrences: existing?.occurrences ?? 1,
      sentBefore: verdict.sentBefore,
    });
    const where = verdict.where ?? existing?.where;
    if (where) record.where = this.secrets.redact(where);
    // A shrunk case keeps the origin of the case that first failed.
    if (existing ? existing.seeded : verdict.seeded) record.seeded = true;
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
      // A replay is reproduced by sending the same request twice, or the request that used the nonce first and then
      // this one.
      curl: curlCommand(request, this.secrets, {
        ...(sentBefore ? { sentBefore: sentBefore.request } : { times: check === "nonce_replay" ? 2 : 1 }),
        nonce: shellNonce(this.options.nonce ?? DEFAULT_NONCE),
      }),
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
