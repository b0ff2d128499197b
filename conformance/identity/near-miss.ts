import type { NearMiss } from "../model/identity-facts.js";
// Near misses of a registered redirect address (the redirect_uri, the post_logout_redirect_uri), which exact matching
// must refuse, and whether the browser was sent to one. Pure: the flows send them (authorization.ts, logout.ts), the
// identity checks judge where the browser arrived (judge/identity-authorization.ts, judge/identity-logout.ts).

const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * The near misses of a registered redirect address (RFC 9700 §4.1.3, OpenID Connect Core §3.1.2.1: exact string
 * matching): a subdomain of its host (not for an IP literal, which has none), a deeper path, another path, an extra
 * query parameter. The port never changes: RFC 8252 §7.3 lets a loopback redirect's port vary, and nothing else.
 */
export function nearMisses(registered: string): NearMiss[] {
  const vary = (how: string, change: (url: URL) => void): NearMiss => {
    const url = new URL(registered);
    change(url);
    return { how, uri: url.href };
  };
  const { hostname } = new URL(registered);
  return [
    ...(IP_LITERAL.test(hostname)
      ? []
      : [vary("a subdomain of the registered host", (url) => (url.hostname = `conformance.${hostname}`))]),
    vary("a deeper path", (url) => (url.pathname = `${url.pathname.replace(/\/$/, "")}/conformance`)),
    vary("another path on the registered host", (url) => (url.pathname = "/conformance-other-path")),
    vary("an extra query parameter", (url) => url.searchParams.append("conformance", "altered")),
  ];
}

/**
 * Whether the browser arrived at `target` itself: its origin and path, and every parameter of its query (an
 * authorization response adds its own); arriving at the registered address instead is not following the target.
 */
export function arrivedAt(arrived: URL | undefined, target: string): boolean {
  const wanted = new URL(target);
  if (!arrived || arrived.origin !== wanted.origin || arrived.pathname !== wanted.pathname) return false;
  return [...wanted.searchParams].every(([key, value]) => arrived.searchParams.getAll(key).includes(value));
}
