// The JSON of an OpenID Connect answer, read with care: a provider may send anything, so each member is checked before
// use. The flows read tokens with it to go on; the checks (judge/identity-*.ts) read the same answers to judge them.
import type { Exchange } from "../model/exchange.js";
import type { TokenResponse } from "../model/identity-facts.js";

/** A JSON body as an object, or undefined. */
export const jsonObject = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The tokens of a successful token response (200 with an access_token), or undefined. */
export function issuedTokens(exchange: Exchange): TokenResponse | undefined {
  const tokens = jsonObject(exchange.response?.json);
  return exchange.response?.status === 200 && typeof tokens?.access_token === "string"
    ? (tokens as TokenResponse)
    : undefined;
}
