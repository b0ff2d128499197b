// What a response check is given: one exchange, the operation it was sent to, and what the case expected of it.
import type { CaseOrigin, Expectation, OperationModel, Violation } from "../model/cases.js";
import type { Exchange } from "../model/exchange.js";
import type { Evidence } from "../model/finding.js";
import type { AssumptionJudge } from "./assumptions.js";

export interface ResponseCheckInput extends AssumptionJudge {
  model: OperationModel;
  exchange: Exchange;
  expectation: Expectation;
  origin?: CaseOrigin | "auth" | "stateful";
  /** When set, positive_data_acceptance does not apply, for this reason. */
  positiveAcceptanceSkipped?: string;
  /** What makes an invalid case invalid (the mutation applied to a valid one). */
  violation?: Violation;
  /** A check that fails tells here where each thing it found is (response_schema_conformance: each schema location). */
  locate?: (evidence: Evidence[]) => void;
}

/** Outcome of one check on one exchange: `undefined` = not applicable, "" = passed, text = the failure. */
export type Outcome = string | undefined;
