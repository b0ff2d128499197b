// Who may talk to the sandbox, a server on a developer's laptop next to their browser:
// - Host: only requests addressed to a loopback name or address (localhost, *.localhost, 127.0.0.0/8, [::1]),
//   the address it listens on, or a name given with --allowed-host. A DNS-rebinding page reaches 127.0.0.1 under
//   its own name, so its requests carry a foreign Host and are refused (as Vite and webpack-dev-server do).
// - CORS: the JSON APIs answer pages whose Origin is the sandbox itself, a loopback origin (a dev server on
//   localhost:5173, the docs site's console), or one given with --allowed-origin; never with credentials (the
//   APIs take keys in headers, not cookies). A request from any other origin is refused, preflight or not.

export interface AccessPolicy {
  /** Host names besides the loopback ones; a leading dot allows subdomains; "*" switches the check off. */
  allowedHosts: string[];
  /** Origins (scheme://host[:port]) besides the sandbox's own and loopback ones; "*" allows any. */
  allowedOrigins: string[];
}

export const DEFAULT_ACCESS: AccessPolicy = { allowedHosts: [], allowedOrigins: [] };

/** The hostname of a Host header or origin, lower-case, IPv6 in brackets; undefined when it does not parse. */
function hostnameOf(authority: string): string | undefined {
  try {
    return new URL(`http://${authority}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function isLoopback(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

function listed(hostname: string, names: string[]): boolean {
  return names.some((name) => {
    const wanted = name.toLowerCase();
    return wanted === "*" || wanted === hostname || (wanted.startsWith(".") && hostname.endsWith(wanted));
  });
}

/** Whether a request with this Host header is for this sandbox (`listenHost`: the address it listens on). */
export function hostAllowed(policy: AccessPolicy, host: string | undefined, listenHost: string): boolean {
  const hostname = host === undefined ? undefined : hostnameOf(host);
  if (hostname === undefined) return false;
  const own = hostnameOf(listenHost.includes(":") ? `[${listenHost}]` : listenHost);
  return isLoopback(hostname) || hostname === own || listed(hostname, policy.allowedHosts);
}

/** Whether a page of this origin may call the JSON APIs (`host`: the request's Host, already checked). */
export function originAllowed(policy: AccessPolicy, origin: string, host: string | undefined): boolean {
  if (policy.allowedOrigins.includes("*")) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (a file:// page, a sandboxed frame) and anything unreadable
  }
  if (!/^https?:$/.test(url.protocol)) return false;
  return (
    url.host === host ||
    isLoopback(url.hostname) ||
    policy.allowedOrigins.some((allowed) => allowed.replace(/\/$/, "").toLowerCase() === url.origin)
  );
}

/** Response headers that let an allowed page (e.g. a dev server on :5173) read the answers and these headers. */
const EXPOSED_HEADERS = "x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after";

export function corsHeaders(origin: string): Record<string, string> {
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS, vary: "Origin" };
}

export function preflightHeaders(origin: string, requestedHeaders: string | undefined): Record<string, string> {
  return {
    ...corsHeaders(origin),
    "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE",
    "access-control-allow-headers": requestedHeaders ?? "",
    "access-control-max-age": "600",
  };
}
