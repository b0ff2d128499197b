// The scenarios of the steps across operations (conformance/steps/), one type each, discriminated by `name`: the
// exchanges a step made, each with its role, and what only the step knows. judge/step-scenarios.ts runs their checks.
import type { RoleExchange } from "./scenario.js";

/** A method a path does not document, sent to it (steps/methods.ts). */
export interface MethodProbe {
  method: string;
  path: string;
  /** The methods the contract documents at the path. */
  documented: string[];
  probe: RoleExchange;
}

/** unsupported_method and allow_header: each probed path (steps/methods.ts). */
export interface UnsupportedMethodsScenario {
  family: "step";
  name: "unsupported methods";
  /** The checks the probes were sent for: those of the run's selection that apply. */
  checks: string[];
  probes: MethodProbe[];
}

/** A request with the narrower key (steps/scopes.ts): the scopes its operation needs, and those the key lacks. */
export interface ScopeTry {
  scopes: string[];
  missing: string[];
  tried: RoleExchange;
}

/** scope_enforcement: the operations tried with the narrower key (steps/scopes.ts). */
export interface ScopesScenario {
  family: "step";
  name: "scopes";
  /** false: the run has no narrower key (--read-only-api-key), so nothing was tried. */
  narrowerKey: boolean;
  tries: ScopeTry[];
}

/** nonce_replay (steps/nonce-replay.ts): a signed read, the same bytes again, and its nonce on another operation. */
export interface NonceReplayScenario {
  family: "step";
  name: "nonce replay";
  first: RoleExchange;
  /** The first sent again as it was (same nonce, same signature), when the first was accepted. */
  replay?: RoleExchange;
  /** Another operation, correctly signed, with the nonce the first used. */
  reuse?: RoleExchange;
}

export type StepScenario = UnsupportedMethodsScenario | ScopesScenario | NonceReplayScenario;
