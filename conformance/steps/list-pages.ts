// list_parameters_honoured on a page that can expose a wrong page number: the answers the run gets anyway are mostly
// page 1, and past the last page the seed leaves open what comes back, so a server that answers `currentpage: 1` to
// every page would pass on them. For each list the run selected, this step reads page 1 with limit 1 (which tells how
// many pages of one row there are), then page 2 with limit 1. A list with fewer than two rows gets rows of the run's
// own first, where writes are allowed and the run can delete what it creates (domains, campaigns); otherwise page 2
// is not reached, and the report says so. The pages are judged like any list answer (judge/list-parameters.ts); the
// step returns what it created and whether it reached page 2, which judge/sequence-scenarios.ts judges.
import type { RunContext } from "../context.js";
import { pointerValue } from "../contract/links.js";
import { isJsonObject } from "../../lib/contract/index.js";
import { succeeded } from "../send/resources.js";
import type { ListPagesScenario } from "../model/step-scenarios.js";
import { createForSequence } from "./creation.js";
import { firstExample, selected, sendStep, type StepParts } from "./parts.js";

const CHECK = "list_parameters_honoured";

/** The lists of this run whose pages the step can ask for: GETs with the profile's page parameters and no path one. */
export function pagedLists(context: RunContext, operationIds: string[]): string[] {
  const config = context.profile.listParameters;
  if (!config || !context.options.checks.has(CHECK)) return [];
  return operationIds.filter((operationId) => {
    const { op, parameters } = context.model(operationId);
    const query = new Set(parameters.filter((p) => p.in === "query").map((p) => p.name));
    return (
      op.method === "get" &&
      query.has(config.pageSize.parameter) &&
      query.has(config.pageNumber.parameter) &&
      !parameters.some((p) => p.in === "path")
    );
  });
}

/** The resource kinds a list shows that the run may create and delete again. */
const creatableFor = (context: RunContext, operationId: string) =>
  context.options.allowWrites
    ? context.resources.filter((kind) => kind.list?.operationId === operationId && kind.delete && !kind.undeletable)
    : [];

/** Requests the step may send: two pages of each list, and where writes are allowed two creations and deletions. */
export function listPagesCost(context: RunContext, operationIds: string[]): number {
  return pagedLists(context, operationIds).reduce(
    (cost, operationId) => cost + 2 + (creatableFor(context, operationId).length > 0 ? 4 : 0),
    0,
  );
}

/** Reads page 1 and page 2 of each list with one row a page, after adding rows of the run's own where it may. */
export async function listPages(step: StepParts, operationIds: string[]): Promise<ListPagesScenario[]> {
  const { context, send } = step;
  const config = context.profile.listParameters!;
  const scenarios: ListPagesScenario[] = [];
  for (const operationId of pagedLists(context, operationIds)) {
    if (send.aborted || !selected(context, operationId)) continue;
    const base = firstExample(context, operationId);
    if (!base) continue;
    context.options.onProgress?.({ type: "operation", operationId, phase: "list pages" });
    const label = (number: number) => `${config.pageSize.parameter}=1, ${config.pageNumber.parameter}=${number}`;
    const page = (number: number) =>
      sendStep(step, operationId, {
        ...structuredClone(base),
        query: { ...base.query, [config.pageSize.parameter]: 1, [config.pageNumber.parameter]: number },
        label: label(number),
      });
    const pages = async () => {
      const first = await page(1);
      const envelope = succeeded(context, first) ? pointerValue(first.response?.json, config.envelope, false) : {};
      const last = isJsonObject(envelope) ? envelope[config.lastPage] : undefined;
      return typeof last === "number" ? last : 0;
    };
    const scenario: ListPagesScenario = { family: "step", name: "list pages", operationId };
    let count = await pages();
    for (const kind of count < 2 ? creatableFor(context, operationId).slice(0, 1) : []) {
      scenario.rowsAdded = { kind, creations: [] };
      for (let made = count; made < 2 && !send.aborted; made++) {
        const creation = await createForSequence(step, kind);
        if (creation) scenario.rowsAdded.creations.push(creation.attempt);
        if (!creation?.made) break;
      }
      count = await pages();
    }
    if (count >= 2 && !send.aborted)
      scenario.secondPage = { role: "page 2", operationId, label: label(2), exchange: await page(2) };
    scenarios.push(scenario);
  }
  return scenarios;
}
