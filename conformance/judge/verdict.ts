// How checks build their verdicts (model/finding.ts): a pass or a failure from a message, a warning from a broken
// `x-assumption`; the decision that a check applies but could not run, and how an exchange ended for its reason.
import type { Decision, PageEvidence, Verdict } from "../model/finding.js";
import type { Navigation } from "../model/identity-facts.js";
import type { CheckName } from "../model/check-registry.js";
import type { JudgeContext } from "../context.js";
import type { Exchange } from "../model/exchange.js";
import type { CheckNote } from "./assumptions.js";
import { envelopeError } from "../contract/words.js";

/** A pass when the message is empty, a failure otherwise: how most checks report. */
export function verdictOf(
  check: CheckName,
  operationId: string,
  message: string,
  exchange: Exchange | undefined,
  caseLabel: string,
  details: Pick<Verdict, "where" | "seeded" | "shrunk" | "tally" | "sentBefore" | "evidence" | "pages"> = {},
): Verdict {
  return { check, operationId, outcome: message ? "fail" : "pass", message, case: caseLabel, exchange, ...details };
}

/** The pages the browser stopped on instead of arriving: a refusal's evidence (a pass's `pages`). */
export const pagesShown = (navigations: Navigation[]): PageEvidence[] =>
  navigations.flatMap((navigation) => (navigation.lastPage && !navigation.arrived ? [navigation.lastPage] : []));

/** A pass with the pages that made it one; a failure's evidence is its exchange. */
export const withPages = (verdict: Verdict, navigations: Navigation[]): Verdict =>
  verdict.outcome === "pass" && pagesShown(navigations).length
    ? { ...verdict, pages: pagesShown(navigations) }
    : verdict;

/** A broken `x-assumption` a check noted: a warning, with the assumption's text. */
export function warningOf(check: CheckName, operationId: string, note: CheckNote, caseLabel: string): Verdict {
  const { message, assumption = "" } = note;
  return { check, operationId, outcome: "warn", message, assumption, case: caseLabel };
}

/** A check that applies but could not run (a prerequisite failed): the run fails with the reason. */
export const cannotRunOf = (check: CheckName, reason: string): Decision => ({
  about: "check",
  name: check,
  decision: "cannot run",
  reason,
});

/** How an exchange ended, for the reason a check could not run. */
export function outcomeOf(context: Pick<JudgeContext, "options">, exchange: Exchange): string {
  if (!exchange.response) return exchange.error ?? "no response";
  const inBody = envelopeError(context.options.api, exchange.response);
  return `status ${exchange.response.status}${inBody ? `, ${inBody}` : ""}`;
}
