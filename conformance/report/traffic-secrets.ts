// Recorded traffic carries real secrets nobody configured: API keys, pay signatures, bearer and refresh tokens,
// cookies, authorization codes, client secrets, PKCE verifiers, sign-in passwords. Each is found where it travels and
// added to the run's Secrets before the exchange is judged, so that no report shows it in any encoding. Each distinct
// value gets a numbered placeholder of its kind in its own shape (`recorded-bearer-token-2`): a report judged again
// from its JSON (--from-json) still tells one token from another, and its bodies still validate.
import type { Secrets } from "./secrets.js";
import type { Exchange } from "../model/exchange.js";

/** Fields whose value is a secret, in a query, a form, a JSON body or a redirect's Location (RFC 6749, 7636, OIDC). */
const SECRET_FIELD =
  /^(access_token|id_token|refresh_token|id_token_hint|client_secret|client_assertion|assertion|code_verifier|code|device_code|password|passwd|pass|passphrase|secret|api_key|apikey|token|otp|pin|totp|signature)$/i;

/** Headers whose whole value is a credential. */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|x-seller-api-key|x-api-key|api-key|x-auth-token|x-csrf-token)$/i;

/** A placeholder a report wrote in a secret's place (`<recorded bearer token 1>`, `$LINKS_TOKEN`): no secret. */
const PLACEHOLDER = /^(<[^<>]*>|\$\{?[A-Z_]+\}?|recorded-[a-z0-9-]+-\d+x*(\.redacted\.redacted)?)$/;

/**
 * The placeholder of the n-th secret of a kind, in the secret's own shape so that a report judged again
 * (--from-json) still validates: URL- and form-safe characters only, a JWT's three parts, and at least the secret's
 * length up to 64 (a PKCE verifier has 43 to 128 characters).
 */
export function placeholderOf(secret: string, kind: string, n: number): string {
  const base = `recorded-${kind.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${n}`;
  const padded = base.padEnd(Math.min(secret.length, 64), "x");
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(secret) ? `${padded}.redacted.redacted` : padded;
}

/** RFC 6749 §2.3.1 form-encodes a Basic client secret; a malformed `%` leaves it as it was sent. */
function formDecoded(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}

export class TrafficSecrets {
  private readonly counts = new Map<string, number>();
  private readonly seen = new Set<string>();
  constructor(private readonly secrets: Secrets) {}

  private add(value: string | undefined, kind: string): void {
    const trimmed = value?.trim();
    if (!trimmed || trimmed.length < 4 || this.seen.has(trimmed) || PLACEHOLDER.test(trimmed)) return;
    this.seen.add(trimmed);
    const n = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, n);
    this.secrets.add(trimmed, placeholderOf(trimmed, kind, n));
  }

  /** An Authorization-like header: the whole value, the credential after its scheme, and Basic's decoded parts. */
  private credentialHeader(name: string, value: string): void {
    const [, scheme, credential] = /^(\S+)\s+(.+)$/.exec(value.trim()) ?? [];
    if (scheme === undefined || credential === undefined) return this.add(value, name.toLowerCase());
    this.add(credential, scheme.toLowerCase() === "bearer" ? "bearer token" : `${scheme.toLowerCase()} credential`);
    if (scheme.toLowerCase() === "basic") {
      const decoded = Buffer.from(credential, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon > 0) {
        this.add(decoded.slice(colon + 1), "client secret");
        this.add(formDecoded(decoded.slice(colon + 1)), "client secret");
        this.add(decoded, "basic credential");
      }
    }
  }

  private cookies(header: string, kind: string): void {
    for (const part of header.split(/;\s*/)) {
      const eq = part.indexOf("=");
      if (eq > 0) this.add(part.slice(eq + 1), kind);
    }
  }

  private fields(params: URLSearchParams): void {
    for (const [name, value] of params) if (SECRET_FIELD.test(name)) this.add(value, name.toLowerCase());
  }

  private json(value: unknown, depth = 0): void {
    if (depth > 20 || value === null || typeof value !== "object") return;
    for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
      if (typeof inner === "string" && SECRET_FIELD.test(name)) this.add(inner, name.toLowerCase());
      else this.json(inner, depth + 1);
    }
  }

  private body(text: string | undefined, contentType: string | undefined): void {
    if (!text) return;
    try {
      return this.json(JSON.parse(text) as unknown);
    } catch {
      // not JSON: a form, or text
    }
    if (!contentType || contentType.includes("form-urlencoded") || /^[^\s{<]*=[^\s]*$/.test(text))
      this.fields(new URLSearchParams(text));
  }

  /** Adds every secret of one exchange (request and response). */
  register(exchange: Exchange): void {
    const request = exchange.request;
    let contentType: string | undefined;
    for (const [name, value] of Object.entries(request.headers)) {
      if (SECRET_HEADER.test(name)) this.credentialHeader(name, value);
      if (/^cookie$/i.test(name)) this.cookies(value, "cookie");
      if (/^content-type$/i.test(name)) contentType = value;
    }
    try {
      this.fields(new URL(request.url).searchParams);
    } catch {
      // a URL the recording tool could not write whole: nothing to find in it
    }
    this.body(request.body, contentType);
    const response = exchange.response;
    if (!response) return;
    for (const cookie of response.setCookies) this.cookies(cookie.split(";")[0] ?? "", "cookie");
    const location = response.headers.location;
    if (location) {
      const url = URL.canParse(location, request.url) ? new URL(location, request.url) : undefined;
      if (url) {
        this.fields(url.searchParams);
        this.fields(new URLSearchParams(url.hash.slice(1)));
      }
    }
    if (response.isJson) this.json(response.json);
    else this.body(response.text, response.headers["content-type"]);
  }
}
