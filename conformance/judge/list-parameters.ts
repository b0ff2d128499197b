// Checks of what the seeds say about lists, judged on the list responses the run receives anyway (no request of their
// own). list_parameters_honoured: a list's query parameters do what the seed says, and the envelope fields that report
// them agree with what was asked (links seed: "limit (results per page) and page (current page number)", reported by
// perpage and currentpage). It judges the list responses the run receives anyway, so it costs no request: on a links
// account limited to 30 requests a minute, every list read of the run (examples, boundaries such as limit=1, random
// valid values, the stateful sequences' page-by-page searches) is evidence.
import { type ApiName, isJsonObject } from "../../lib/contract/index.js";
import { PROFILES } from "../apis.js";
import { isSuccess } from "../contract/words.js";
import { pointerValue } from "../contract/links.js";
import type { Exchange } from "../model/exchange.js";

/** A positive integer sent as a query parameter, or undefined when the request did not send one. */
function sentNumber(url: URL, name: string): number | undefined {
  const text = url.searchParams.get(name);
  return text !== null && /^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : undefined;
}

/** The one array of the envelope: the page's rows (domains, cta, campaigns, channels or items). */
function rowsOf(envelope: Record<string, unknown>): unknown[] | undefined {
  const arrays = Object.values(envelope).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/**
 * "" when the page agrees with the parameters sent, the problems otherwise; undefined when the exchange is no
 * successful list response of an API whose profile names list parameters (nothing to judge).
 *
 * - page size: the page lists at most `limit` rows and at most the `perpage` it reports, and `perpage` is not more
 *   than `limit`. A smaller `perpage` with as few rows is a provider's maximum page size, which the seed leaves open
 *   ("the maximum value of limit: not shown").
 * - page number: `currentpage` is the page asked for. Past the last page, the seed does not say what comes back, so
 *   `currentpage` may also be the last page (a provider that serves the last page instead, and says so).
 */
export function listParametersProblems(api: ApiName, exchange: Exchange): string | undefined {
  const response = exchange.response;
  const config = PROFILES[api].listParameters;
  if (!config || !response || !isSuccess(api, response)) return undefined;
  const envelope = pointerValue(response.json, config.envelope, false);
  if (!isJsonObject(envelope)) return undefined;
  const rows = rowsOf(envelope);
  if (!rows) return undefined;
  const url = new URL(exchange.request.url);
  const problems: string[] = [];
  const limit = sentNumber(url, config.pageSize.parameter);
  const perpage = envelope[config.pageSize.reportedBy];
  const limitName = `${config.pageSize.parameter}=${limit}`;
  if (limit !== undefined && rows.length > limit)
    problems.push(`${limitName} was sent but the page lists ${rows.length} rows`);
  if (typeof perpage === "number") {
    if (limit !== undefined && perpage > limit)
      problems.push(`${limitName} was sent but ${config.pageSize.reportedBy} is ${perpage}`);
    if (rows.length > perpage)
      problems.push(`${config.pageSize.reportedBy} is ${perpage} but the page lists ${rows.length} rows`);
  }
  const page = sentNumber(url, config.pageNumber.parameter);
  const current = envelope[config.pageNumber.reportedBy];
  const last = envelope[config.lastPage];
  const clamped = typeof last === "number" && page !== undefined && page > last && current === last;
  if (page !== undefined && typeof current === "number" && current !== page && !clamped)
    problems.push(
      `${config.pageNumber.parameter}=${page} was asked for but ${config.pageNumber.reportedBy} is ${current}`,
    );
  return problems.join("; ");
}

/**
 * seen_together: the rows of a list that break what the seed reports only as seen together (pay: status 0 with
 * date_payed null, status 1 with a timestamp), as one message; "" when every row keeps it, undefined when the
 * exchange is no successful answer of that list. The caller judges it as a broken assumption (a warning).
 */
export function seenTogetherProblems(api: ApiName, operationId: string, exchange: Exchange): string | undefined {
  const relation = PROFILES[api].seenTogether;
  if (!relation || relation.operationId !== operationId || !isSuccess(api, exchange.response)) return undefined;
  const rows = pointerValue(exchange.response?.json, relation.rows, false);
  if (!Array.isArray(rows)) return undefined;
  const problems: string[] = [];
  for (const row of rows) {
    if (!isJsonObject(row)) continue;
    const seen = relation.seen.find((s) => s.value === row[relation.field]);
    const other = row[relation.other];
    const type = other === null ? "null" : typeof other;
    if (seen && relation.other in row && type !== seen.type)
      problems.push(
        `a row with ${relation.field} ${JSON.stringify(seen.value)} has ${relation.other} ${JSON.stringify(other)} (seen only with ${seen.type === "null" ? "null" : `a ${seen.type}`})`,
      );
  }
  return problems.slice(0, 3).join("; ");
}
