// How the fault provider matches a redirect address with a registered one: exactly, or as loosely as a redirect fault
// makes it (the query ignored, any path on the origin, any subdomain of the host).
import type { IdentityFault } from "./identity.js";

const sameOrigin = (a: string, b: string) =>
  URL.canParse(a) && URL.canParse(b) && new URL(a).origin === new URL(b).origin;

/** Whether a redirect_uri is taken as the registered one: exactly, or as loosely as the fault matches it. */
export function looselyMatches(fault: IdentityFault | undefined, uri: string, registered: string): boolean {
  if (uri === registered) return true;
  if (!URL.canParse(uri)) return false;
  const [sent, known] = [new URL(uri), new URL(registered)];
  if (fault === "redirect-uri-query-ignored") return uri.split("?")[0] === registered.split("?")[0];
  if (fault === "redirect-uri-any-path") return sent.origin === known.origin;
  if (fault === "redirect-uri-any-subdomain")
    return (
      sent.protocol === known.protocol &&
      sent.port === known.port &&
      sent.hostname.endsWith(`.${known.hostname}`) &&
      sent.pathname + sent.search === known.pathname + known.search
    );
  return false;
}

/** Whether logout takes a post_logout_redirect_uri as registered: exactly, or as loosely as the fault does. */
export function postLogoutRegistered(fault: IdentityFault | undefined, target: string, registered: string[]): boolean {
  if (fault === "logout-open-redirect") return true;
  const anyPath = fault === "post-logout-redirect-uri-any-path";
  return registered.some((r) => r === target || (anyPath && sameOrigin(r, target)));
}
