// Members of a provider's answers that look like secrets of the user (a password hash, its salt, a TOTP secret,
// recovery codes, a private key): by name, at any depth. The flows register their values as secrets before anything
// is judged or written (no report shows them), and no_secret_claims fails on their names alone.
import { decodeJwt } from "jose";
import type { Exchange } from "../model/exchange.js";
import { issuedTokens, jsonObject } from "./json.js";

/** A secret-looking member: where it is (`security.totp_secret`, `recovery_codes`) and its values, never shown. */
export interface SecretMember {
  path: string;
  values: string[];
}

/** The words of a member name, lower case: `passwordHash` and `password-hash` are both `password hash`. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** One word that names a secret on its own; a word that contains password or secret (`passwordhash`) too. */
const SECRET_WORDS = new Set(["pwd", "passphrase", "salt", "totp", "hotp", "otp", "mnemonic"]);
/** Two words that name a secret together; `hash` only as the whole name, so at_hash and a wallet's tx_hash are not. */
const SECRET_PAIRS = ["recovery code", "recovery codes", "backup code", "backup codes", "private key", "seed phrase"];

export function isSecretName(name: string): boolean {
  const words = wordsOf(name);
  const joined = words.join(" ");
  return (
    words.some((word) => SECRET_WORDS.has(word) || /password|passwd|secret|privatekey/.test(word)) ||
    SECRET_PAIRS.some((pair) => ` ${joined} `.includes(` ${pair} `)) ||
    joined === "hash" ||
    joined === "hashed"
  );
}

/** Every string and number under `value`, as text. */
function leaves(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "number") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leaves);
  const object = jsonObject(value);
  return object ? Object.values(object).flatMap(leaves) : [];
}

/** The secret-looking members of a JSON value, nested in objects and arrays included. */
export function secretMembers(value: unknown, path = ""): SecretMember[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => secretMembers(item, `${path}[${index}]`));
  const object = jsonObject(value);
  if (!object) return [];
  return Object.entries(object).flatMap(([name, member]) => {
    const at = path ? `${path}.${name}` : name;
    return isSecretName(name) ? [{ path: at, values: leaves(member) }] : secretMembers(member, at);
  });
}

/** The id_token's payload, read without verifying (what it carries is there whoever signed it); undefined if none. */
export function idTokenPayload(idToken: unknown): Record<string, unknown> | undefined {
  if (typeof idToken !== "string") return undefined;
  try {
    return decodeJwt(idToken);
  } catch {
    return undefined;
  }
}

/**
 * What an answer of the token endpoint or userinfo carries, by where it is: a successful token response and the
 * payload of its id_token, or another 200 JSON object (userinfo's claims).
 */
export function claimDocuments(exchange: Exchange): Array<{ where: string; json: Record<string, unknown> }> {
  const tokens = issuedTokens(exchange);
  if (tokens) {
    const payload = idTokenPayload(tokens.id_token);
    return [
      { where: "the token response", json: tokens },
      ...(payload ? [{ where: "the id_token", json: payload }] : []),
    ];
  }
  const body = exchange.response?.status === 200 ? jsonObject(exchange.response.json) : undefined;
  return body ? [{ where: "the response", json: body }] : [];
}

/** Registers the values of an answer's secret-looking members as secrets: no verdict or report shows them. */
export function hideSecretClaims(secrets: { add(value: string, placeholder: string): void }, exchange: Exchange) {
  for (const { json } of claimDocuments(exchange))
    for (const { path, values } of secretMembers(json))
      for (const value of values) secrets.add(value, `<secret claim ${path}>`);
}
