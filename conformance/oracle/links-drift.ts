// Where a drifted links deployment's code departs from its published docs (the seed), as the source of a real
// link-management product showed (issue 46). The independent links server (links.ts) behaves so when asked; the pages
// its drifted router answers before the API's code runs are here.
import type { OracleReply } from "./links.js";

/** The departures of a drifted deployment (see `drift`). */
export type DeploymentDrift =
  /** Lists answer `error: 0`, an integer, not the documented string "0". */
  | "list-error-integer"
  /** The overlay list's array is named `overlay`, not `cta`. */
  | "overlay-array-key"
  /** Campaign add and update answer the name under `campaign`, not `domain`. */
  | "campaign-name-key"
  /** `nextpage` is null on the last page. */
  | "nextpage-null-on-last-page"
  /** A free account's `expires` is null. */
  | "free-account-expires-null"
  /** A created domain's `id` is a string. */
  | "domain-id-string"
  /** A method a path does not document gets the router's 405 HTML page, without `Allow` (RFC 9110 §15.5.6). */
  | "method-not-allowed-html"
  /** A path id that is not a whole number gets the framework's 500 HTML page. */
  | "non-integer-id-html-500"
  /** Campaign add refuses a body without a name (the seed: "name (string, optional)"), as its code requires one. */
  | "campaign-add-name-required";

export const DEPLOYMENT_DRIFT: readonly DeploymentDrift[] = [
  "list-error-integer",
  "overlay-array-key",
  "campaign-name-key",
  "nextpage-null-on-last-page",
  "free-account-expires-null",
  "domain-id-string",
  "method-not-allowed-html",
  "non-integer-id-html-500",
  "campaign-add-name-required",
];

/** The routes this server answers (the cases below): where a drifted router's own pages come from. */
const ROUTES = [
  "GET /api/account",
  "PUT /api/account/update",
  "GET /api/domains",
  "POST /api/domain/add",
  "PUT /api/domain/:id/update",
  "DELETE /api/domain/:id/delete",
  "GET /api/overlay",
  "GET /api/campaigns",
  "POST /api/campaign/add",
  "PUT /api/campaign/:id/update",
  "DELETE /api/campaign/:id/delete",
  "POST /api/campaign/:id/assign/:id",
  "GET /api/channels",
  "GET /api/channel/:id",
  "POST /api/channel/add",
].map((route) => {
  const [method, path] = route.split(" ") as [string, string];
  return { method, segments: path.split("/").filter(Boolean) };
});

/** A web framework's own error page, as a router or an uncaught exception answers before the API's code runs. */
const htmlPage = (status: number, title: string): OracleReply => ({
  status,
  body: `<!DOCTYPE html><html><head><title>${status} ${title}</title></head><body><h1>${title}</h1></body></html>`,
  html: true,
});

/**
 * The pages of a drifted router (`method-not-allowed-html`, `non-integer-id-html-500`): a path it routes asked with
 * another method, or with a path id that is not a whole number; undefined for anything else.
 */
export function routerPage(
  drift: ReadonlySet<DeploymentDrift>,
  method: string,
  parts: string[],
): OracleReply | undefined {
  const fits = (segments: string[], id: (part: string) => boolean) =>
    segments.length === parts.length &&
    segments.every((segment, i) => (segment === ":id" ? id(parts[i]!) : segment === parts[i]));
  const whole = (part: string) => /^\d+$/.test(part);
  const routed = ROUTES.filter((route) => fits(route.segments, whole));
  if (drift.has("method-not-allowed-html") && routed.length > 0 && !routed.some((route) => route.method === method))
    return htmlPage(405, "Method Not Allowed");
  const anyId = ROUTES.filter((route) => route.method === method && fits(route.segments, () => true));
  if (drift.has("non-integer-id-html-500") && routed.length === 0 && anyId.length > 0)
    return htmlPage(500, "Internal Server Error");
  return undefined;
}
