// The secrets that real traffic carries, found in each exchange before anything about it is printed or written, and
// added to the run's filter (conformance/secrets.ts), which then masks them in every encoding it knows. The proxy
// is given no credentials: it learns them from what passes, the request of an exchange before its response.
import type { Secrets } from "../secrets.js";
import type { ProxiedExchange } from "./recording.js";

/** Header fields whose whole value is a credential, besides those that hold one after a scheme (Authorization). */
const SECRET_HEADER = /^(?:x-seller-api-key|x-api-key|api-key|x-auth-token|x-access-token|x-csrf-token)$|signature/i;
const SCHEME_HEADERS = new Set(["authorization", "proxy-authorization"]);

/**
 * Parameters and JSON fields that carry a credential in the four APIs and the standards they follow (RFC 6749
 * §4.1 and §5.1, RFC 7636, OIDC RP-initiated logout's id_token_hint, the links account's password).
 */
const SECRET_FIELD =
  /^(?:code|code_verifier|client_secret|client_assertion|assertion|access_token|refresh_token|id_token|id_token_hint|token|logout_token|device_code|password|new_password|secret|api_key|apikey|otp|pin)$/i;

/** A JSON Web Token anywhere in a text (RFC 7519: base64url JOSE header, payload and signature). */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

/** Adds every credential of the exchange to `secrets`. */
export function learnSecrets(secrets: Secrets, exchange: ProxiedExchange): void {
  const found: Array<[string, string]> = [];
  const { request, response } = exchange;
  for (const [name, value] of Object.entries(request.headers)) headerSecrets(name, value, found);
  parametersOf(request.url, found);
  if (request.body !== undefined) bodySecrets(request.body, request.headers["content-type"], found);
  if (response) {
    for (const [name, value] of Object.entries(response.headers))
      if (name !== "set-cookie") headerSecrets(name, value, found);
    for (const cookie of response.setCookies) cookieSecrets(cookie.split(";")[0] ?? "", found);
    if (response.headers.location) parametersOf(response.headers.location, found);
    bodySecrets(response.text, response.headers["content-type"], found);
  }
  for (const [value, placeholder] of found) secrets.add(value, placeholder);
}

function headerSecrets(name: string, value: string, found: Array<[string, string]>): void {
  const lower = name.toLowerCase();
  if (SCHEME_HEADERS.has(lower)) {
    found.push([value, `<${lower}>`]);
    const [scheme, credential] = value.split(/\s+/, 2);
    if (!credential) return;
    found.push([credential, `<${lower}>`]);
    if (scheme!.toLowerCase() === "basic") {
      // RFC 7617: base64 of id:password, each part form-encoded first by OAuth clients (RFC 6749 §2.3.1).
      const pair = Buffer.from(credential, "base64").toString("utf8");
      const password = pair.slice(pair.indexOf(":") + 1);
      found.push([password, "<basic password>"]);
      try {
        found.push([decodeURIComponent(password.replace(/\+/g, " ")), "<basic password>"]);
      } catch {
        // not form-encoded: the raw form above is the secret
      }
    }
  } else if (lower === "cookie") for (const pair of value.split(";")) cookieSecrets(pair, found);
  else if (SECRET_HEADER.test(lower)) found.push([value, `<${lower}>`]);
}

/** A cookie's value: every cookie is a credential until shown otherwise (a session, a CSRF token, a sign-in state). */
function cookieSecrets(pair: string, found: Array<[string, string]>): void {
  const at = pair.indexOf("=");
  if (at < 0) return;
  const name = pair.slice(0, at).trim();
  const value = pair.slice(at + 1).trim();
  if (value) found.push([value, `<cookie ${name}>`]);
}

/** Credentials in a URL's query or fragment (an authorization code on a redirect, a token in an implicit fragment). */
function parametersOf(url: string, found: Array<[string, string]>): void {
  if (!URL.canParse(url, "http://x")) return;
  const parsed = new URL(url, "http://x");
  for (const part of [parsed.search, parsed.hash])
    for (const [name, value] of new URLSearchParams(part.slice(1))) fieldSecret(name, value, found);
}

function fieldSecret(name: string, value: unknown, found: Array<[string, string]>): void {
  if (typeof value === "string" && value && SECRET_FIELD.test(name)) found.push([value, `<${name}>`]);
}

/** Credentials in a form or JSON body, at any depth, and any JWT in any body. */
function bodySecrets(text: string, contentType: string | undefined, found: Array<[string, string]>): void {
  for (const token of text.match(JWT) ?? []) found.push([token, "<jwt>"]);
  if (/application\/x-www-form-urlencoded/i.test(contentType ?? "")) {
    for (const [name, value] of new URLSearchParams(text)) fieldSecret(name, value, found);
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return;
  }
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object")
      for (const [name, value] of Object.entries(node)) {
        fieldSecret(name, value, found);
        walk(value);
      }
  };
  walk(json);
}
