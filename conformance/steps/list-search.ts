// Finding one resource in its list, page by page, on an account that may hold hundreds of them. The seeds show
// neither the order of a list nor its largest page size, so the search drops the example's `limit` (the provider's
// default page size), reads both ends of the list first (a new resource is at one of them when the list keeps
// creation order, either way round) and then the pages between, within a budget of requests. It tells "not in the
// list" only when it has seen the list to its end; when the budget runs out first, it says so instead of guessing.
import type { ResourceKind } from "../apis.js";
import type { ListSearch } from "../model/step-scenarios.js";
import type { RequestCase } from "../model/cases.js";
import { isSuccess } from "../contract/words.js";
import { pointerValue, resourceId } from "../contract/links.js";
import type { Exchange } from "../model/exchange.js";
import { firstExample, sendStep, type StepParts } from "./parts.js";

/** Pages read at most for one search: links allows 30 requests a minute. */
export const LIST_PAGES_READ = 20;

/** What the reads so far say about the list. */
interface ListShape {
  read: Set<number>;
  /** The last page: `data.maxpage` when the list says it (links), else found by reading (pay). */
  lastPage?: number;
  /** The highest page read that listed something, and the lowest that listed nothing. */
  lastFull: number;
  firstEmpty?: number;
}

/**
 * Looks for the resource `id` in `kind`'s list. `wasOn`: the page that listed it before it was deleted; the search
 * then reads that page, both ends (an update may have moved it) and the pages beside it, and calls it absent when
 * none of them lists it, so that a long list need not be read whole to show a deletion.
 */
export async function findInList(
  step: Pick<StepParts, "context" | "send" | "judge">,
  kind: ResourceKind,
  id: unknown,
  wasOn?: number,
): Promise<ListSearch> {
  const { context, send } = step;
  const list = kind.list!;
  const base = firstExample(context, list.operationId);
  if (!base) return { outcome: "unknown", why: `${list.operationId} has no example to send` };
  const shape: ListShape = { read: new Set(), lastFull: 0 };
  let last: Exchange | undefined;
  for (let page: number | undefined = wasOn ?? 1; page !== undefined && !send.aborted; page = nextPage(shape, wasOn)) {
    if (shape.read.size >= LIST_PAGES_READ) {
      const read = `${list.operationId} was read for ${LIST_PAGES_READ} pages (both ends first) without finding it`;
      const goesOn = `the list goes on${shape.lastPage ? ` to page ${shape.lastPage}` : ""}`;
      return { outcome: "unknown", last, why: `${read}, and ${goesOn}` };
    }
    const label = `list ${kind.name}s, page ${page} (sequence)`;
    last = await sendStep(step, list.operationId, pageCase(base, list, page, label));
    const items = pointerValue(last.response?.json, list.items, false);
    if (!isSuccess(context.options.api, last.response) || !Array.isArray(items)) {
      const status = last.response?.status ?? "no response";
      return { outcome: "unknown", last, why: `${list.operationId} page ${page} was not a list (HTTP ${status})` };
    }
    shape.read.add(page);
    const item: unknown = items.find((candidate) => String(resourceId(candidate, list.itemId)) === String(id));
    if (item !== undefined) return { outcome: "found", last, item, page };
    if (!list.pageParameter) return { outcome: "absent", last };
    const maxpage = (last.response?.json as { data?: { maxpage?: unknown } } | undefined)?.data?.maxpage;
    learn(shape, page, items.length, maxpage);
  }
  return send.aborted ? { outcome: "unknown", last, why: "the run was interrupted" } : { outcome: "absent", last };
}

/** One page of the list: the example without its `limit`, on `page`. */
function pageCase(
  base: RequestCase,
  list: NonNullable<ResourceKind["list"]>,
  page: number,
  label: string,
): RequestCase {
  const requestCase: RequestCase = structuredClone({ ...base, label });
  delete requestCase.query.limit;
  if (list.pageParameter?.in === "query") requestCase.query[list.pageParameter.name] = page;
  else if (list.pageParameter?.in === "body" && requestCase.body && typeof requestCase.body === "object")
    (requestCase.body as Record<string, unknown>)[list.pageParameter.name] = page;
  return requestCase;
}

function learn(shape: ListShape, page: number, itemCount: number, maxpage: unknown): void {
  if (itemCount > 0) shape.lastFull = Math.max(shape.lastFull, page);
  else shape.firstEmpty = Math.min(shape.firstEmpty ?? page, page);
  if (typeof maxpage === "number" && Number.isInteger(maxpage)) shape.lastPage = Math.max(1, maxpage);
  else if (shape.firstEmpty === shape.lastFull + 1) shape.lastPage = shape.lastFull;
}

/**
 * The next page to read, or undefined when there is none left to prove absence: both ends first (after a deletion,
 * the page it was on before them, and its neighbours after), then every page in order.
 */
function nextPage(shape: ListShape, wasOn: number | undefined): number | undefined {
  const { read, lastPage } = shape;
  const unread = (page: number) => page >= 1 && (lastPage === undefined || page <= lastPage) && !read.has(page);
  const end = nextForEnds(shape);
  if (end !== undefined) return end;
  if (wasOn !== undefined) return [wasOn - 1, wasOn + 1].find(unread);
  for (let page = 2; lastPage === undefined || page <= lastPage; page++) if (unread(page)) return page;
  return undefined;
}

/**
 * The next page towards having read page 1 and the last page. Without `maxpage` (pay), the last page is found by
 * doubling the page number until a page lists nothing, then halving the gap: a few reads for thousands of pages.
 */
function nextForEnds({ read, lastPage, lastFull, firstEmpty }: ListShape): number | undefined {
  if (!read.has(1)) return 1;
  if (lastPage !== undefined) return lastPage >= 1 && !read.has(lastPage) ? lastPage : undefined;
  if (firstEmpty === undefined) return lastFull * 2;
  return Math.floor((lastFull + firstEmpty) / 2);
}
