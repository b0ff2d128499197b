// The scenarios of the steps across operations (conformance/steps/), one type each, discriminated by `name`: the
// exchanges a step made, each with its role, and what only the step knows (a list searched to its end, a creation
// that could not be sent and why). judge/step-scenarios.ts runs their checks.
import type { ResourceKind } from "../apis.js";
import type { Exchange } from "./exchange.js";
import type { RoleExchange } from "./scenario.js";

/** A resource looked for in its list, page by page (steps/list-search.ts). */
export interface ListSearch {
  /** "absent" only when the list was seen to its end, or (for a resource deleted after it was found) where it was. */
  outcome: "found" | "absent" | "unknown";
  /** The exchange that listed the resource, or the last one read. */
  last?: Exchange;
  item?: unknown;
  /** The page that listed it. */
  page?: number;
  /** For "unknown": why the search could not tell. */
  why?: string;
}

/** The creation a sequence starts with (steps/creation.ts): why it could not be sent, or what it sent and got back. */
export type CreationAttempt =
  | { sent: false; why: string }
  | {
      sent: true;
      create: RoleExchange;
      /** The body of the case sent: created_values_echoed compares it with what comes back. */
      body: unknown;
      /** The new resource's id in the answer, if any. */
      id?: string | number;
    };

/** An update of the sequence's resource, and where it was looked for after it. */
export interface SequenceUpdate {
  update: RoleExchange;
  /** The body of the case sent: update_visible_on_read compares it with the list. */
  body: unknown;
  /** The updated resource in its list: looked for when the update was accepted and the list showed it before. */
  search?: ListSearch;
}

/**
 * The lifecycle of one resource (steps/lifecycle.ts): create, (pay) replay the creation, find it in its list, read,
 * update, delete, then use it after its deletion. Each part is there when the step got that far.
 */
export interface LifecycleScenario {
  family: "step";
  name: "lifecycle";
  kind: ResourceKind;
  creation: CreationAttempt;
  /** pay: the creation sent again as it was (nonce_replay), when a write was kept for it. */
  replay?: RoleExchange;
  /** The new resource looked for in its list. */
  listed?: ListSearch;
  /** A read of the new resource: the response checks judge it. */
  read?: RoleExchange;
  update?: SequenceUpdate;
  deletion?: RoleExchange;
  /** After an accepted deletion: an update of the deleted resource (without one, a second delete). */
  usedAfterDeletion?: RoleExchange;
  /** After an accepted deletion: the resource looked for where its list showed it. */
  searchedAfterDeletion?: ListSearch;
}

/** idempotency (catalog, steps/idempotency.ts): a creation with an Idempotency-Key, and its repeat with that key. */
export interface IdempotencyScenario {
  family: "step";
  name: "idempotency";
  kind: ResourceKind;
  creation: CreationAttempt;
  /** The same creation with the same key, when the first was accepted. */
  repeat?: RoleExchange;
}

/**
 * list_parameters_honoured on page 2 (steps/list-pages.ts): the pages read are judged like any list answer; what is
 * judged here is the rows the step created to reach page 2, and whether it reached it.
 */
export interface ListPagesScenario {
  family: "step";
  name: "list pages";
  operationId: string;
  /** The resources created to give the list two rows. */
  rowsAdded?: { kind: ResourceKind; creations: CreationAttempt[] };
  /** Page 2 with one row a page, sent when the list held two rows. */
  secondPage?: RoleExchange;
}

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

/**
 * update_visible_on_read on a resource without an id (links' account, steps/update-visible.ts): the update the provider
 * accepted, sent again as it was, and the read after it.
 */
export interface UpdatesVisibleScenario {
  family: "step";
  name: "updates visible";
  /** Where the read shows the resource (a JSON pointer into its answer). */
  at: string;
  sentAgain: RoleExchange;
  /** The read, sent when the update sent again was accepted. */
  readBack?: RoleExchange;
}

export type StepScenario =
  | LifecycleScenario
  | IdempotencyScenario
  | ListPagesScenario
  | UnsupportedMethodsScenario
  | ScopesScenario
  | NonceReplayScenario
  | UpdatesVisibleScenario;
