// What a scenario did: a step across operations (conformance/steps/) or an OpenID Connect flow (conformance/identity/)
// sends, and returns what it saw as a Scenario value: the exchanges it made, each tagged with its role, and the facts
// only it knows (a list searched to its end). Scenarios only send; the judge runs the checks on each finished one
// (judge/scenarios.ts) and hands their findings to the ledger.
import type { Expectation, OperationModel } from "./cases.js";
import type { Exchange } from "./exchange.js";
import type { IdentityScenario } from "./identity-scenarios.js";
import type { StepScenario } from "./step-scenarios.js";

/** One exchange a scenario made, with the part it played (create, read, delete, replay, sign-in page, token...). */
export interface RoleExchange {
  role: string;
  operationId: string;
  /** What the request was, for the report: `delete the new domain 12 (sequence)`. */
  label: string;
  exchange: Exchange;
}

export type Scenario = StepScenario | IdentityScenario;

/**
 * What a scenario asks of the judge while it runs: the response checks on each exchange it sends, for what it
 * expected, and (updates visible) the fullest valid update the judge saw accepted. Nothing that runs a scenario's own
 * checks or records a finding: a scenario returns what it saw.
 */
export interface ScenarioJudge {
  exchange(model: OperationModel, exchange: Exchange, expectation: Expectation, caseLabel: string): unknown;
  acceptedUpdate(operationId: string): Exchange | undefined;
}
