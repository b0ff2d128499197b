// The reference of one API, generated from its bundle, as several pages (docs/reference/<api>/):
//   index.md     overview: servers, authentication, the headers on every response, errors, the spec download,
//                for pay a worked signing example, and the list of operations
//   <tag>.md     the operations of one tag: code samples, fields, responses, quirks/gaps/assumptions, a console
//   webhooks.md  the webhooks, if any
//   schemas.md   every schema
// Nothing here is written by hand: it all comes from the bundle and its readers' copy (reader-bundle.ts).
import { type ApiName, type DocOperation, type Document, operationPage, operationsOf } from "./document.js";
import { readerBundle } from "./reader-bundle.js";
import { overviewPage, sharedResponseHeaders } from "./reference-overview.js";
import { type DeploymentPointer, operationsPage } from "./reference-operations.js";
import { schemasPage } from "./reference-schemas.js";

export { sharedResponseHeaders } from "./reference-overview.js";
export { redocHref, specHref } from "./reference-parts.js";

/**
 * Every reference page of the API: page name (without `.md`) to markdown. With `deployment` (DOCS_OVERLAY), the
 * pages of the operations a deployment's overlay changes point to its page.
 */
export function renderReferencePages(
  api: ApiName,
  contract: Document,
  deployment?: DeploymentPointer,
): Map<string, string> {
  const doc = readerBundle(api, contract);
  const pages = new Map<string, string>();
  pages.set("index", overviewPage(api, contract));
  const byPage = new Map<string, DocOperation[]>();
  for (const op of operationsOf(doc)) byPage.set(operationPage(op), [...(byPage.get(operationPage(op)) ?? []), op]);
  const shared = sharedResponseHeaders(contract);
  for (const [page, ops] of byPage) pages.set(page, operationsPage(api, contract, page, ops, shared, deployment));
  pages.set("schemas", schemasPage(api, contract));
  return pages;
}

/** The pages of the reference in reading order, with their titles (for the sidebar). */
export function referencePageList(contract: Document): Array<{ page: string; title: string }> {
  const list: Array<{ page: string; title: string }> = [];
  for (const op of operationsOf(contract)) {
    const page = operationPage(op);
    if (list.some((entry) => entry.page === page)) continue;
    list.push({ page, title: op.webhook ? "Webhooks" : `${capitalise(op.operation.tags?.[0] ?? "other")}` });
  }
  return [...list, { page: "schemas", title: "Schemas" }];
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
