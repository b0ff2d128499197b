// The data judging hands to the report: a Verdict is what one check found on one exchange (or on a step across
// several), a Decision is a check or an operation the run skipped or could not run, and why. Checks return them; the
// ledger (report/ledger.ts) keeps them; the report is built from the ledger alone.
import type { Exchange } from "../send/transport.js";
import type { CheckNote } from "./assumptions.js";

export interface Verdict {
  check: string;
  operationId: string;
  /** pass; fail (the message says why); warn: a broken `x-assumption`, never a failure unless --strict. */
  outcome: "pass" | "fail" | "warn";
  /** Why it failed or warned ("" for a pass). */
  message: string;
  /** What the case was: `example ...`, `random valid data`, the mutation, `no credentials`, a sequence step. */
  case: string;
  /** The exchange judged; a failure is reproduced from it. */
  exchange?: Exchange;
  /** warn: the `x-assumption` text. */
  assumption?: string;
  /** Where in the request an invalid case breaks the contract (the baseline key). */
  where?: string;
  /** The case came from random data of this run's seed. */
  seeded?: boolean;
  /** The smallest failing case fast-check found: it replaces the reproduction, not counted again. */
  shrunk?: boolean;
  /** false while shrinking: the counts are those of the cases the run meant to send. */
  tally?: boolean;
  /** The exchange the failing request depends on (the one that used its nonce first), reproduced before it. */
  sentBefore?: Exchange;
}

export interface Decision {
  about: "check" | "operation";
  /** The check's name or the operationId. */
  name: string;
  /**
   * skipped: it does not apply or was not asked for (no failure); cannot run: it applies, but a credential or a
   * prerequisite is missing (fails the run); not sent: a kind of case of an operation was held back (--max-writes).
   */
  decision: "skipped" | "cannot run" | "not sent";
  reason: string;
}

/** A pass when the message is empty, a failure otherwise: how most checks report. */
export function verdictOf(
  check: string,
  operationId: string,
  message: string,
  exchange: Exchange | undefined,
  caseLabel: string,
  details: Pick<Verdict, "where" | "seeded" | "shrunk" | "tally" | "sentBefore"> = {},
): Verdict {
  return { check, operationId, outcome: message ? "fail" : "pass", message, case: caseLabel, exchange, ...details };
}

/** A broken `x-assumption` a check noted: a warning, with the assumption's text. */
export function warningOf(check: string, operationId: string, note: CheckNote, caseLabel: string): Verdict {
  const { message, assumption = "" } = note;
  return { check, operationId, outcome: "warn", message, assumption, case: caseLabel };
}
