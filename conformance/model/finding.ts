// What judging produces, as values: a Finding is a check's verdict on an exchange (or on a scenario across several), a
// decision that a check or an operation did not run and why, or an observation of what the contract leaves open.
// Checks return findings; only the judge hands them to the ledger (report/ledger.ts), which the reports read.
import type { CheckName } from "./check-registry.js";
import type { Exchange } from "./exchange.js";
import type { AdvertisedElsewhere } from "./identity-facts.js";

export interface Verdict {
  check: CheckName;
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
  /**
   * fail: each place the response breaks its contract, when the check locates them (a body's schema locations): each
   * is a failure of its own, so that one broken field is one cause wherever it appears, whatever else breaks beside it.
   */
  evidence?: Evidence[];
  /**
   * pass: the pages the provider showed where a check counts a page as a refusal (an error or confirmation page instead
   * of a redirect), as the OpenID Foundation suite asks for their screenshots.
   */
  pages?: PageEvidence[];
}

/** A page the provider stopped the browser on: where, its status when known, its text, a screenshot (--browser). */
export interface PageEvidence {
  /** Its address without the query (which may carry codes). */
  url: string;
  status?: number;
  /** The visible text, trimmed (the driver's excerpt). */
  text: string;
  /** --browser: a PNG screenshot, base64. */
  screenshot?: string;
}

/** One place a response breaks its contract, as the judge located it; the same for the same fault on any operation. */
export interface Evidence {
  /** Where: a JSON Pointer into the body, each array position written `*` (`/data/0/id`, `/data/3/id`: one place). */
  location: string;
  /** What the schema asks there and the body breaks: its JSON Schema keywords (`type`, `required`, `type+const`). */
  keyword: string;
  /** This place's failure alone, as the message says it. */
  message: string;
}

export type Decision = CheckDecision | OperationDecision;

/** A check skipped or unable to run. */
interface CheckDecision extends DecisionWhy {
  about: "check";
  name: CheckName;
}

/** An operation skipped, or some of its cases not sent. */
interface OperationDecision extends DecisionWhy {
  about: "operation";
  /** The operationId. */
  name: string;
}

interface DecisionWhy {
  /** not sent: the kind of case held back (`valid data`); the reason then says why, once for all of them. */
  cases?: string;
  /**
   * skipped: it does not apply or was not asked for (no failure); cannot run: it applies, but a credential or a
   * prerequisite is missing (fails the run); not sent: a kind of case of an operation was held back (--max-writes).
   */
  decision: "skipped" | "cannot run" | "not sent";
  reason: string;
}

/**
 * Something the contract leaves open that the provider did (accepted invalid data it never promised to refuse), or,
 * `deployment`, a fact about the deployment the contract's tables do not hold for (its endpoints are elsewhere).
 */
export interface Observation {
  about: "observation";
  operationId: string;
  message: string;
  deployment?: boolean;
  /** A deployment fact the overlay records (an identity endpoint's `x-advertised-endpoint`): known, not new. */
  known?: true;
  /** The operations' endpoints advertised elsewhere than the contract's, which `contracts overlay record` records. */
  advertised?: AdvertisedElsewhere[];
}

export type Finding = Verdict | Decision | Observation;
