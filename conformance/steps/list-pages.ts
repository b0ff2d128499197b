// list_parameters_honoured on a page that can expose a wrong page number: the answers the run gets anyway are mostly
// page 1, and past the last page the seed leaves open what comes back, so a server that answers `currentpage: 1` to
// every page would pass on them. For each list the run selected, this step reads page 1 with limit 1 (which tells how
// many pages of one row there are), then page 2 with limit 1. A list with fewer than two rows gets rows of the run's
// own first, where writes are allowed and the run can delete what it creates (domains, campaigns); otherwise page 2
// is not reached, and the report says so. The pages are judged like any list answer (judge/list-parameters.ts).
import type { RunContext } from "../context.js";
import { pointerValue } from "../contract/links.js";
import { isJsonObject } from "../../lib/contract/index.js";
import { succeeded } from "../send/resources.js";
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

export async function listPages(step: StepParts, operationIds: string[]): Promise<void> {
  const { context, ledger, send } = step;
  const config = context.profile.listParameters!;
  for (const operationId of pagedLists(context, operationIds)) {
    if (send.aborted || !selected(context, operationId)) continue;
    const base = firstExample(context, operationId);
    if (!base) continue;
    context.options.onProgress?.({ type: "operation", operationId, phase: "list pages" });
    const page = (number: number) =>
      sendStep(step, operationId, {
        ...structuredClone(base),
        query: { ...base.query, [config.pageSize.parameter]: 1, [config.pageNumber.parameter]: number },
        label: `${config.pageSize.parameter}=1, ${config.pageNumber.parameter}=${number}`,
      });
    const pages = async () => {
      const first = await page(1);
      const envelope = succeeded(context, first) ? pointerValue(first.response?.json, config.envelope, false) : {};
      const last = isJsonObject(envelope) ? envelope[config.lastPage] : undefined;
      return typeof last === "number" ? last : 0;
    };
    let count = await pages();
    for (const kind of count < 2 ? creatableFor(context, operationId).slice(0, 1) : []) {
      for (let made = count; made < 2 && !send.aborted; made++)
        if (!(await createForSequence(step, kind, [CHECK]))) break;
      count = await pages();
    }
    if (count >= 2 && !send.aborted) await page(2);
    else
      ledger.decide({
        about: "operation",
        name: operationId,
        decision: "not sent",
        reason: `${CHECK}: page 2 with ${config.pageSize.parameter}=1 not reached: the list holds fewer than two rows${context.options.allowWrites ? "" : " (--allow-writes would add rows of the run's own)"}`,
      });
  }
}
