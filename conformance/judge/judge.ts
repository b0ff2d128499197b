// Judging: what the checks say of an exchange, written to the ledger. `judgeArrival` runs on every exchange the
// session sends (max_response_time, rate-limit consistency, the gaps the contract leaves); `judge` runs the response
// checks for what the case expected (accepted, refused, refused for its credentials, anything); `assumptionJudge` is
// how a check outside the response checks reports a broken `x-assumption`.
import type { OperationModel, Violation } from "../plan/cases.js";
import type { CheckNote } from "./assumptions.js";
import type { Expectation, ResponseCheckInput } from "./response-check-input.js";
import { runResponseChecks } from "./response-checks.js";
import { isSuccess } from "./contract-words.js";
import type { Session } from "../send/session.js";
import type { Exchange } from "../send/transport.js";

/** The judgments every exchange gets as it arrives; a probe of another method gets only max_response_time. */
export function judgeArrival(
  session: Session,
  model: OperationModel,
  exchange: Exchange,
  caseLabel: string,
  probe: boolean,
): void {
  const limit = session.options.maxResponseTimeMs;
  if (limit !== undefined && exchange.response) {
    session.ledger.record(
      "max_response_time",
      model.op.operationId,
      exchange.durationMs > limit ? `answered in ${exchange.durationMs} ms, above --max-response-time ${limit}` : "",
      exchange,
      caseLabel,
    );
  }
  if (probe) return;
  session.observations.observe(model, exchange);
  const operationId = model.op.operationId;
  if (session.rateLimitConsistency) {
    const outcome = session.rateLimitConsistency.observe(
      exchange,
      assumptionJudge(session, "rate_limit_headers_consistent", operationId, "consecutive responses"),
    );
    if (outcome !== undefined)
      session.ledger.record("rate_limit_headers_consistent", operationId, outcome, exchange, "consecutive responses");
  }
}

/**
 * Runs the response checks on an exchange and records them. Returns the failed checks with their messages.
 * `tally: false` while shrinking, so that the counts are those of the cases the run meant to send.
 */
export function judge(
  session: Session,
  model: OperationModel,
  exchange: Exchange,
  expectation: Expectation,
  caseLabel: string,
  options: { tally?: boolean; violation?: Violation; seeded?: boolean } = {},
): Map<string, string> {
  if (exchange.interrupted) return new Map();
  if (!session.expectations.has(exchange)) session.expectations.set(exchange, expectation);
  noteAcceptedUpdate(session, model, exchange, expectation);
  const skipPositive = session.profile.noPositiveAcceptance(model.op.operationId, session.options.credentials);
  const operationId = model.op.operationId;
  let current = "";
  const note = (found: CheckNote) => {
    if (options.tally === false) return; // shrinking repeats what was already noted
    if (found.kind === "observation")
      session.observations.acceptedInvalid(operationId, session.secrets.redact(found.message));
    else session.ledger.warn(current, operationId, found.message, found.assumption ?? "", caseLabel);
  };
  const outcomes = runResponseChecks(
    {
      model,
      exchange,
      expectation,
      positiveAcceptanceSkipped: skipPositive,
      violation: options.violation,
      strict: session.options.strict,
      note,
    },
    session.options.checks,
    (name) => (current = name),
  );
  const failed = new Map<string, string>();
  const where = options.violation?.description.split(":")[0];
  for (const [check, outcome] of outcomes) {
    if (outcome) failed.set(check, outcome);
    if (options.tally !== false)
      session.ledger.record(check, model.op.operationId, outcome, exchange, caseLabel, {
        where,
        seeded: options.seeded,
      });
  }
  return failed;
}

/** Keeps the accepted updates of a resource without an id, valid or not, in order (update_visible_on_read). */
function noteAcceptedUpdate(
  session: Session,
  model: OperationModel,
  exchange: Exchange,
  expectation: Expectation,
): void {
  const operationId = model.op.operationId;
  if (expectation !== "valid" && expectation !== "invalid") return;
  if (!session.profile.singletonUpdates?.some((s) => s.update === operationId)) return;
  if (!isSuccess(session.options.api, exchange.response)) return;
  const accepted = session.acceptedUpdates.get(operationId) ?? [];
  accepted.push({ exchange, valid: expectation === "valid" });
  session.acceptedUpdates.set(operationId, accepted);
}

/**
 * How a check judges a broken `x-assumption` outside the response checks: a warning recorded here, a failure under
 * --strict.
 */
export function assumptionJudge(
  session: Session,
  check: string,
  operationId: string,
  caseLabel: string,
): Pick<ResponseCheckInput, "strict" | "note"> {
  return {
    strict: session.options.strict,
    note: (found: CheckNote) =>
      session.ledger.warn(check, operationId, found.message, found.assumption ?? "", caseLabel),
  };
}
