// The judge: the only caller of checks, and the only code that records in the ledger (as events, model/events.ts).
// It gets every exchange: `exchanged`, each one the transport completed; `arrival`, each exchange of an operation as
// it arrives (max_response_time, rate-limit consistency, the gaps the contract leaves, the coverage of what was sent);
// `exchange`, the response checks of what the case expected (accepted, refused, refused for its credentials,
// anything), exactly the plan item's checks. It gets every finished scenario of a step or an OpenID Connect flow
// (`scenario`), the run's decisions (`decided`), a shrunk case (`shrunk`), and recorded traffic (`recorded`,
// `history`). Every check returns its findings as values; a broken `x-assumption` is a warning, a failure under
// --strict.
import { loadContract } from "../../lib/contract/index.js";
import type { JudgeContext } from "../context.js";
import type { CaseKind, OperationModel, Violation } from "../model/cases.js";
import type { HistoryCheck } from "./history.js";
import { caseKind } from "../plan/case-kinds.js";
import type { EventSink } from "../model/events.js";
import type { Arrival } from "../send/sender.js";
import type { Exchange } from "../model/exchange.js";
import type { AssumptionJudge, CheckNote } from "./assumptions.js";
import { RateLimitConsistency } from "./rate-limit-consistency.js";
import type { Expectation } from "../model/cases.js";
import { runResponseChecks } from "./response-checks.js";
import { isSuccess } from "../contract/words.js";
import { verdictOf, warningOf } from "./verdict.js";
import type { Decision, Evidence, Finding } from "../model/finding.js";
import type { CheckName } from "../model/check-registry.js";
import type { Scenario } from "../model/scenario.js";
import { judgeScenario } from "./scenarios.js";

export interface JudgeOptions {
  /** The plan item's checks: the judge runs exactly these (a step's exchanges: every selected check). */
  checks?: readonly CheckName[];
  /** false while shrinking: the counts are those of the cases the run meant to send. */
  tally?: boolean;
  violation?: Violation;
  seeded?: boolean;
}

/** A random case fast-check shrank while the same check kept failing, and what that check said of it. */
export interface ShrunkCase {
  check: CheckName;
  operationId: string;
  message: string;
  exchange: Exchange;
  label: string;
  where?: string;
}

export class Judge {
  /** Where each located failure of an exchange is, by check: a shrunk case's verdict names its places too. */
  private readonly evidence = new WeakMap<Exchange, Partial<Record<CheckName, Evidence[]>>>();
  /** rate_limit_headers_consistent across consecutive responses, when the contract declares a limit. */
  private readonly rateLimitConsistency: RateLimitConsistency | undefined;
  /** Successful updates of a resource without an id (the links account), in order: update_visible_on_read. */
  private readonly acceptedUpdates = new Map<string, Array<{ exchange: Exchange; valid: boolean }>>();

  constructor(
    private readonly context: JudgeContext,
    private readonly events: EventSink,
  ) {
    const declared = context.declaredRateLimit;
    const unitAssumption =
      declared &&
      (
        loadContract(context.options.api).document.components?.headers?.[declared.headers.reset] as
          { schema?: { "x-assumption"?: string } } | undefined
      )?.schema?.["x-assumption"];
    this.rateLimitConsistency =
      declared && context.options.checks.has("rate_limit_headers_consistent")
        ? new RateLimitConsistency(declared, unitAssumption)
        : undefined;
  }

  /** The judgments every exchange gets as it arrives; a probe of another method gets only max_response_time. */
  arrival({ model, exchange, requestCase, auth, probe }: Arrival): void {
    const operationId = model.op.operationId;
    this.events.record({ type: "sent", operationId, kind: caseKind(requestCase, auth, probe), exchange });
    const limit = this.context.options.maxResponseTimeMs;
    if (limit !== undefined && exchange.response) {
      const slow = exchange.durationMs > limit;
      const message = slow ? `answered in ${exchange.durationMs} ms, above --max-response-time ${limit}` : "";
      this.found(verdictOf("max_response_time", operationId, message, exchange, requestCase.label));
    }
    if (probe) return;
    this.events.record({ type: "observed", model, exchange });
    if (!this.rateLimitConsistency) return;
    const caseLabel = "consecutive responses";
    const outcome = this.rateLimitConsistency.observe(
      exchange,
      this.assumption("rate_limit_headers_consistent", operationId, caseLabel),
    );
    if (outcome !== undefined)
      this.found(verdictOf("rate_limit_headers_consistent", operationId, outcome, exchange, caseLabel));
  }

  /** Runs the response checks on an exchange and adds their verdicts. Returns the failed checks with their messages. */
  exchange(
    model: OperationModel,
    exchange: Exchange,
    expectation: Expectation,
    caseLabel: string,
    options: JudgeOptions = {},
  ): Map<CheckName, string> {
    if (exchange.interrupted) return new Map();
    this.events.record({ type: "expected", exchange, expectation });
    this.noteAcceptedUpdate(model, exchange, expectation);
    const { options: run, profile } = this.context;
    const operationId = model.op.operationId;
    const results = runResponseChecks(
      {
        model,
        exchange,
        expectation,
        positiveAcceptanceSkipped: profile.noPositiveAcceptance(operationId, run.credentials),
        violation: options.violation,
        strict: run.strict,
      },
      new Set(options.checks ?? run.checks),
    );
    const failed = new Map<CheckName, string>();
    const where = options.violation?.description.split(":")[0];
    for (const { check, outcome, notes, evidence } of results) {
      if (outcome) failed.set(check, outcome);
      if (evidence) this.evidence.set(exchange, { ...this.evidence.get(exchange), [check]: evidence });
      // Shrinking repeats a case already counted and noted.
      if (options.tally === false) continue;
      for (const note of notes)
        if (note.kind === "observation") this.found({ about: "observation", operationId, message: note.message });
        else this.found(warningOf(check, operationId, note, caseLabel));
      if (outcome !== undefined)
        this.found(
          verdictOf(check, operationId, outcome, exchange, caseLabel, { where, seeded: options.seeded, evidence }),
        );
    }
    return failed;
  }

  /** How a check outside the response checks reports a broken `x-assumption`: a warning, a failure under --strict. */
  private assumption(check: CheckName, operationId: string, caseLabel: string): AssumptionJudge {
    return {
      strict: this.context.options.strict,
      note: (found: CheckNote) => this.found(warningOf(check, operationId, found, caseLabel)),
    };
  }

  /**
   * The valid update of a resource without an id (the links account) that the provider accepted and that sent the
   * most fields, the last of those: the "updates visible" step sends it again before its read
   * (steps/update-visible.ts).
   */
  acceptedUpdate(operationId: string): Exchange | undefined {
    const accepted = this.acceptedUpdates.get(operationId) ?? [];
    return fullest(accepted.filter((a) => a.valid).map((a) => a.exchange));
  }

  /**
   * Runs the checks of a finished scenario (a step, an OpenID Connect flow) and adds what they found. A check that
   * could not run because the request budget cut the scenario's item short (`cutByBudget`) is not reached, which the
   * report's budget section says; any other cause fails the run.
   */
  scenario(scenario: Scenario, cutByBudget = false): void {
    for (const finding of judgeScenario(scenario, this.context))
      if (!(cutByBudget && cannotRun(finding))) this.found(finding);
  }

  /** What the run decided: the checks and operations it skips or cannot run, and why (`cutByBudget`: as above). */
  decided(decisions: readonly Decision[], cutByBudget = false): void {
    for (const decision of decisions) if (!(cutByBudget && cannotRun(decision))) this.found(decision);
  }

  /** A recorded exchange of an operation (passive runs): filed under its kind, looked at for what is left open. */
  recorded(model: OperationModel, exchange: Exchange, kind: CaseKind): void {
    this.events.record({ type: "sent", operationId: model.op.operationId, kind, exchange });
    if (exchange.response) this.events.record({ type: "observed", model, exchange });
  }

  /** The checks only a history of real traffic allows (history.ts) on one recorded exchange; returns the failures. */
  history(checks: HistoryCheck[], operationId: string, exchange: Exchange, label: string) {
    const failures: Array<{ check: CheckName; message: string }> = [];
    for (const history of checks) {
      const judged = history.observe(operationId, exchange, this.assumption(history.check, operationId, label));
      for (const { outcome, sentBefore } of judged) {
        const details = sentBefore ? { sentBefore } : {};
        this.found(verdictOf(history.check, operationId, outcome, exchange, label, details));
        if (outcome) failures.push({ check: history.check, message: outcome });
      }
    }
    return failures;
  }

  /** Every exchange the transport completed, judged or not: the JSON report keeps them all. */
  exchanged(exchange: Exchange): void {
    this.events.record({ type: "exchanged", exchange });
  }

  /**
   * The smallest failing case of a random draw: its verdict replaces the reproduction of the first failure and is not
   * counted again.
   */
  shrunk({ check, operationId, message, exchange, label, where }: ShrunkCase): void {
    const evidence = this.evidence.get(exchange)?.[check];
    this.found(
      verdictOf(check, operationId, message, exchange, label, { tally: false, shrunk: true, where, evidence }),
    );
  }

  /** The one way a finding reaches the ledger. */
  private found(finding: Finding): void {
    this.events.record({ type: "finding", finding });
  }

  /** Keeps the accepted updates of a resource without an id, valid or not, in order (update_visible_on_read). */
  private noteAcceptedUpdate(model: OperationModel, exchange: Exchange, expectation: Expectation): void {
    const operationId = model.op.operationId;
    if (expectation !== "valid" && expectation !== "invalid") return;
    if (!this.context.profile.singletonUpdates?.some((s) => s.update === operationId)) return;
    if (!isSuccess(this.context.options.api, exchange.response)) return;
    const accepted = this.acceptedUpdates.get(operationId) ?? [];
    accepted.push({ exchange, valid: expectation === "valid" });
    this.acceptedUpdates.set(operationId, accepted);
  }
}

const fieldCount = (exchange: Exchange): number => {
  try {
    const body = JSON.parse(exchange.request.body ?? "null") as unknown;
    return body !== null && typeof body === "object" ? Object.keys(body).length : 0;
  } catch {
    return 0;
  }
};

/** The exchange whose request body has the most fields; the last of them on a tie. */
function fullest(exchanges: Exchange[]): Exchange | undefined {
  return exchanges.reduce<Exchange | undefined>(
    (best, exchange) => (!best || fieldCount(exchange) >= fieldCount(best) ? exchange : best),
    undefined,
  );
}

/** A check the run found it could not run. */
const cannotRun = (finding: Finding): boolean =>
  "about" in finding && finding.about === "check" && finding.decision === "cannot run";
