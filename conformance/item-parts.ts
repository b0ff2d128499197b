// What executing one item of the plan works with: the run's parts, built once by the runner (runner.ts startRun).
// Each item also gets a sender of its own (send/sender.ts forItem), so that its exchanges carry its id; an operation's
// case goes through execute.ts, a step across operations through steps/run-step.ts.
import type { RunContext } from "./context.js";
import type { Judge } from "./judge/judge.js";
import type { WriteBudget } from "./plan/write-budget.js";
import type { LinkValues } from "./send/link-values.js";
import type { ResourceTracker } from "./send/resources.js";
import type { IssuedTokens } from "./identity/issued-tokens.js";
import type { OpenedSessions } from "./identity/sessions.js";

export interface ItemParts {
  /** Options and contract facts, read-only. */
  context: RunContext;
  /** Runs the checks and records what they found: the only way anything reaches the ledger. */
  judge: Judge;
  /** --max-writes: the creations the run may still make of what it cannot delete, and those kept for sequences. */
  writes: WriteBudget;
  /** The resources the run created, deleted at its end. */
  tracker: ResourceTracker;
  /** identity: the tokens the run obtained, revoked at its end (identity/cleanup.ts). */
  tokens: IssuedTokens;
  /** identity: the sessions the run opened at the provider, ended at its end (identity/cleanup.ts). */
  sessions: OpenedSessions;
  /** The values the Link Objects give, each source called once per run. */
  linkValues: LinkValues;
}
