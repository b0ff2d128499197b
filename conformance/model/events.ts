// The events of a run, in the order they happen: what the judge hands to the ledger (report/ledger.ts), which is a
// reducer over them. The reports read the ledger alone.
import type { CaseKind, Expectation, OperationModel } from "./cases.js";
import type { Exchange } from "./exchange.js";
import type { Finding } from "./finding.js";

export type RunEvent =
  /** Every exchange the transport completed, judged or not (the JSON report keeps them for --from-json). */
  | { type: "exchanged"; exchange: Exchange }
  /** An exchange of an operation, as the coverage files it. */
  | { type: "sent"; operationId: string; kind: CaseKind; exchange: Exchange }
  /** An answer to look at for what the contract leaves open (extra fields, undocumented statuses). */
  | { type: "observed"; model: OperationModel; exchange: Exchange }
  /** What the run expected of an exchange it judged. */
  | { type: "expected"; exchange: Exchange; expectation: Expectation }
  /** What a check found. */
  | { type: "finding"; finding: Finding };

/** Where the judge's events go: the ledger. */
export interface EventSink {
  record(event: RunEvent): void;
}
