// The cases the runner sends: an operation as the runner reads it (OperationModel), one case of it with typed values
// (RequestCase, made by plan/cases.ts), and where an invalid case breaks the contract (Violation, Location).
import type { RequestParts } from "../apis.js";
import type { RunnerOperation } from "../contract/lookup.js";

/** Where in a request a value lives. `path` is a list of keys inside the body (empty for the body itself). */
export type Location = { in: "body"; path: string[] } | { in: "path" | "query" | "header"; name: string };

/** Where a case comes from; `sequence`: a step of a sequence (steps/sequences.ts), whatever case it started from. */
export type CaseOrigin = "example" | "boundary" | "random" | "invalid" | "sequence";

export interface RequestCase extends RequestParts {
  origin: CaseOrigin;
  /** What the case is, e.g. `example domainWithRedirects` or the mutation that made it invalid. */
  label: string;
  /** Sent as the raw body text (a malformed body). */
  rawBody?: string;
  /** The request body is left out. */
  noBody?: boolean;
  /** Invalid cases: the one way the case breaks the contract. */
  violation?: Violation;
}

/** Where and how an invalid case breaks the contract (a mutation without its value, so that cases stay cloneable). */
export interface Violation {
  description: string;
  location: Location;
  /** The mutation left a parameter or field out: judged by the words on it, not on its value's schema. */
  removed?: boolean;
}

export interface ParameterInfo {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  pointer: string;
  examples: unknown[];
}

export interface OperationModel {
  op: RunnerOperation;
  parameters: ParameterInfo[];
  body?: { mediaType: string; pointer: string; required: boolean; examples: Array<{ name: string; value: unknown }> };
}

/** What the run expected of an exchange: accepted ("valid"), refused for its data or its credentials, or anything. */
export type Expectation = "valid" | "invalid" | "unauthenticated" | "any";

/** The kinds of case, as the coverage matrix's columns. A mutation's kind is `mutation: <what it breaks>`. */
export type CaseKind =
  | "example"
  | "boundary"
  | "random data"
  | `mutation: ${string}`
  | "no credentials"
  | "wrong credentials"
  | "narrower credentials"
  | "sequence step"
  | "other method"
  | "recorded traffic";
