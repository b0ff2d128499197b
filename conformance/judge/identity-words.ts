// What the identity checks judge and the words they judge with: an authorization's outcome as the redirect_uri
// received it, a token response, what counts as a refused token request, how an exchange is described in a message,
// and how a check returns a broken `x-assumption` as a warning beside its verdict. The flows (identity/) produce these
// values; the identity checks (judge/identity-*.ts) read them.
import type { Authorization } from "../model/identity-facts.js";
import type { Exchange } from "../model/exchange.js";
import { type AssumptionJudge, assumptionBroken, type CheckNote } from "./assumptions.js";
import type { Decision, Verdict } from "../model/finding.js";
import { verdictOf, warningOf } from "./verdict.js";
import { jsonObject } from "../identity/json.js";
import type { CheckName } from "../model/check-registry.js";

/** What an identity check found: a verdict, or a decision (skipped, unable to run). */
export type IdentityResult = Verdict | Decision;

/** A value for a problem message: strings as they are, anything else as JSON. */
export const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

const oauthError = (exchange: Exchange) => jsonObject(exchange.response?.json)?.error;

/**
 * A token request refused: any 4xx without an access token. Which status and error code is token_errors' to judge
 * (RFC 6749 §5.2); a code refused with 403 and another code was still not accepted.
 */
export const refused = (exchange: Exchange) => {
  const status = exchange.response?.status ?? 0;
  return status >= 400 && status < 500 && typeof jsonObject(exchange.response?.json)?.access_token !== "string";
};

/** A token request refused with this RFC 6749 §5.2 error code (a 4xx carrying it): what token_errors judges. */
export const refusedWith = (exchange: Exchange, error: string) => refused(exchange) && oauthError(exchange) === error;

/** A token endpoint's answer in a message: its status and OAuth error, or why there was none. */
export const describe = (exchange: Exchange) => {
  const error = oauthError(exchange);
  return exchange.response
    ? `status ${exchange.response.status}${error ? ` ${shown(error)}` : ""}`
    : `no response (${exchange.error})`;
};

/** What an authorization came back with, in a message. */
export const describeAuthorization = (a: Authorization) =>
  a.kind === "code"
    ? "a code"
    : a.kind === "error"
      ? `error ${a.error}${a.description ? ` (${a.description})` : ""}`
      : a.failure;

/** A problem that breaks only an `x-assumption` of the contract, as a check states it. */
export interface AssumedProblem {
  check: CheckName;
  operationId: string;
  caseLabel: string;
  problem: string;
  /** The `x-assumption` text; undefined when the contract makes no such assumption (the problem is a failure). */
  assumption: string | undefined;
}

/**
 * How a check of a scenario judges a broken `x-assumption`: the warnings it notes are kept as findings of `check`,
 * to be returned beside its verdict.
 */
export function notedAssumptions(
  strict: boolean | undefined,
  check: CheckName,
  operationId: string,
  caseLabel: string,
): { judge: AssumptionJudge; warnings: Verdict[] } {
  const warnings: Verdict[] = [];
  const note = (found: CheckNote) => warnings.push(warningOf(check, operationId, found, caseLabel));
  return { judge: { strict, note }, warnings };
}

/**
 * The message of the verdict on a problem that breaks only an assumption, and the warning that reports it: the verdict
 * passes with the warning beside it, or under --strict the message fails it.
 */
export function assumedProblem(
  strict: boolean | undefined,
  found: AssumedProblem,
): { message: string; warnings: Verdict[] } {
  const { check, operationId, caseLabel, problem, assumption } = found;
  if (!problem || assumption === undefined) return { message: problem, warnings: [] };
  const noted = notedAssumptions(strict, check, operationId, caseLabel);
  return { message: assumptionBroken(noted.judge, problem, assumption), warnings: noted.warnings };
}

/** The verdict on a problem that breaks only an assumption, shown with `exchange`, and the warning beside it. */
export function assumedVerdicts(strict: boolean | undefined, found: AssumedProblem, exchange: Exchange): Verdict[] {
  const { message, warnings } = assumedProblem(strict, found);
  return [...warnings, verdictOf(found.check, found.operationId, message, exchange, found.caseLabel)];
}
