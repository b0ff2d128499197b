// The checks of the stateful sequences (steps/lifecycle.ts, idempotency.ts, list-pages.ts): what the scenario's
// exchanges and searches say, through the checks of sequence-checks.ts and echoed.ts; and, where a prerequisite of a
// check failed (a creation, a search, a deletion), why it could not run.
import type { ResourceKind } from "../apis.js";
import type { JudgeContext } from "../context.js";
import type { Finding } from "../model/finding.js";
import type {
  CreationAttempt,
  IdempotencyScenario,
  LifecycleScenario,
  ListPagesScenario,
} from "../model/step-scenarios.js";
import { isSuccess } from "../contract/words.js";
import { createdValuesEchoed } from "./echoed.js";
import {
  createdIsListed,
  deletedDoesNotAnswer,
  deletedIsNotListed,
  repeatIsIdempotent,
  replayedCreationIsRefused,
  updateIsVisible,
} from "./sequence-checks.js";
import { cannotRunOf, outcomeOf } from "./verdict.js";
import type { CheckName } from "../model/check-registry.js";

const UPDATE_VISIBLE = "update_visible_on_read";
const USE_AFTER_FREE: CheckName = "use_after_free";

/** The new resource's id, when the creation made one: accepted, with an id in the answer. */
function madeId(context: JudgeContext, creation: CreationAttempt): string | number | undefined {
  return creation.sent && isSuccess(context.options.api, creation.create.exchange.response) ? creation.id : undefined;
}

/** created_values_echoed on the creation response; when no resource came of it, why each of `checks` cannot run. */
function judgeCreation(
  context: JudgeContext,
  kind: ResourceKind,
  creation: CreationAttempt,
  checks: CheckName[],
): Finding[] {
  if (madeId(context, creation) !== undefined) return echoedOnCreation(context, kind, creation);
  let why: string;
  if (!creation.sent) why = creation.why;
  else if (isSuccess(context.options.api, creation.create.exchange.response))
    why = `no id at ${kind.id} in the response`;
  else why = outcomeOf(context, creation.create.exchange);
  const reason = `the ${kind.name} sequence could not create a ${kind.name} (${kind.create}: ${why})`;
  return checks.map((check) => cannotRunOf(check, reason));
}

/** created_values_echoed on the creation's own response: what was sent comes back. */
function echoedOnCreation(context: JudgeContext, kind: ResourceKind, creation: CreationAttempt): Finding[] {
  if (!creation.sent) return [];
  const model = context.model(kind.create);
  const where = `the ${kind.create} response`;
  const echoed = createdValuesEchoed(model, kind, creation.body, creation.create.exchange, where);
  return echoed ? [echoed] : [];
}

/** create → listed → read → update → delete → not listed and no longer updatable, in the order the step went. */
export function judgeLifecycle(scenario: LifecycleScenario, context: JudgeContext): Finding[] {
  const { kind, creation, replay } = scenario;
  const checks: CheckName[] = [
    ...(kind.list ? (["ensure_resource_availability"] as const) : []),
    ...(kind.delete ? [USE_AFTER_FREE] : []),
    "created_values_echoed",
  ];
  const findings = judgeCreation(context, kind, creation, checks);
  const id = madeId(context, creation);
  if (id === undefined || !creation.sent) return findings;
  if (replay) findings.push(replayedCreationIsRefused(context.options.api, kind, replay.exchange, replay.label));
  return [
    ...findings,
    ...judgeListed(context, scenario, id),
    ...judgeUpdateInList(context, scenario, id),
    ...judgeDeletion(context, scenario, id),
  ];
}

/** ensure_resource_availability: the new resource is in its list, as it was created (created_values_echoed). */
function judgeListed(context: JudgeContext, { kind, creation, listed }: LifecycleScenario, id: string | number) {
  if (!listed || !creation.sent) return [];
  if (listed.outcome === "unknown")
    return [
      cannotRunOf("ensure_resource_availability", `the new ${kind.name} ${id} could not be looked for: ${listed.why}`),
    ];
  const findings: Finding[] = [createdIsListed(kind, id, listed.outcome, listed.last ?? creation.create.exchange)];
  if (listed.outcome === "found" && listed.last) {
    const where = kind.list!.operationId;
    const model = context.model(kind.create);
    const echoed = createdValuesEchoed(model, kind, creation.body, listed.last, where, listed.item);
    if (echoed) findings.push(echoed);
  }
  return findings;
}

/**
 * update_visible_on_read: an accepted update shows where the list showed the resource before. Only fields whose
 * value the update changed are evidence; none changed, nothing is found.
 */
function judgeUpdateInList(context: JudgeContext, { kind, listed, update }: LifecycleScenario, id: string | number) {
  const listOperation = kind.list?.operationId;
  if (!update || !context.options.checks.has(UPDATE_VISIBLE) || !listOperation) return [];
  if (!isSuccess(context.options.api, update.update.exchange.response)) return [];
  if (listed?.outcome !== "found")
    return [cannotRunOf(UPDATE_VISIBLE, `the ${kind.name} ${id} was not found in ${listOperation} before its update`)];
  const after = update.search;
  if (!after) return [];
  if (after.outcome !== "found" || !after.last) {
    const why = after.why ? `: ${after.why}` : "";
    return [cannotRunOf(UPDATE_VISIBLE, `the updated ${kind.name} ${id} could not be found in ${listOperation}${why}`)];
  }
  const operationId = update.update.operationId;
  const shown = { resource: after.item, before: listed.item, where: `${listOperation} after ${operationId}` };
  const label = `read the ${kind.name} ${id} after its update`;
  const verdict = updateIsVisible(context.model(operationId), update.body, shown, after.last, label);
  return verdict ? [verdict] : [];
}

/** use_after_free: the deleted resource neither answers an update (or a second delete) nor stays in its list. */
function judgeDeletion(context: JudgeContext, scenario: LifecycleScenario, id: string | number): Finding[] {
  const { kind, deletion, listed, usedAfterDeletion: used, searchedAfterDeletion: search } = scenario;
  const { api } = context.options;
  if (!deletion) return [];
  if (!isSuccess(api, deletion.exchange.response)) {
    const outcome = outcomeOf(context, deletion.exchange);
    const reason = `the ${kind.name} ${id} could not be deleted (${deletion.operationId}: ${outcome})`;
    return [cannotRunOf(USE_AFTER_FREE, reason)];
  }
  const findings: Finding[] = [];
  if (used) findings.push(deletedDoesNotAnswer(api, kind, id, used.operationId, used.exchange, used.label));
  if (!kind.list) return findings;
  if (listed?.outcome !== "found") {
    const why = `it was not found there before its deletion either`;
    const reason = `the deleted ${kind.name} ${id} was not looked for in ${kind.list.operationId}: ${why}`;
    findings.push(cannotRunOf(USE_AFTER_FREE, reason));
  } else if (search?.outcome === "unknown") {
    const reason = `the deleted ${kind.name} ${id} could not be looked for in its list: ${search.why}`;
    findings.push(cannotRunOf(USE_AFTER_FREE, reason));
  } else if (search) findings.push(deletedIsNotListed(kind, id, search.outcome, search.last));
  return findings;
}

/** idempotency: the repeat with the same key answers the same product; created_values_echoed on the first. */
export function judgeIdempotency({ kind, creation, repeat }: IdempotencyScenario, context: JudgeContext): Finding[] {
  if (!creation.sent)
    return (["idempotency", "created_values_echoed"] as const).map((check) =>
      cannotRunOf(check, `the ${kind.name} could not be created: ${creation.why}`),
    );
  const first = creation.create.exchange;
  if (!isSuccess(context.options.api, first.response)) {
    const why = `the first creation with an Idempotency-Key was not accepted (${outcomeOf(context, first)})`;
    return [
      cannotRunOf("idempotency", `${why}, so a repeat proves nothing`),
      cannotRunOf("created_values_echoed", `${why}, so nothing came back to compare`),
    ];
  }
  const findings = echoedOnCreation(context, kind, creation);
  if (repeat) findings.push(repeatIsIdempotent(context.options.api, kind.create, first, repeat.exchange));
  return findings;
}

/** list_parameters_honoured: the rows the step created for page 2, and page 2 not sent when the list stayed short. */
export function judgeListPages({ operationId, rowsAdded, secondPage }: ListPagesScenario, context: JudgeContext) {
  const check = "list_parameters_honoured";
  const findings: Finding[] = (rowsAdded?.creations ?? []).flatMap((creation) =>
    judgeCreation(context, rowsAdded!.kind, creation, [check]),
  );
  if (secondPage) return findings;
  const { allowWrites } = context.options;
  const size = context.profile.listParameters!.pageSize.parameter;
  findings.push({
    about: "operation",
    name: operationId,
    decision: "not sent",
    reason: `${check}: page 2 with ${size}=1 not reached: the list holds fewer than two rows${allowWrites ? "" : " (--allow-writes would add rows of the run's own)"}`,
  });
  return findings;
}
