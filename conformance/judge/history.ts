// The checks only a history of real traffic allows, each on what a seed says: pay's nonces never repeat, links'
// X-RateLimit-* headers count down within a window, catalog's Idempotency-Key repeated with the same body gets the
// same product, and identity's issued token is accepted until it expires. Each follows the exchanges in the order
// their responses arrived and returns, per exchange, the outcome of its check ("" passed, text failed) or nothing
// when the exchange says nothing about it.
import { canonicalJson } from "../../lib/canonical-json.js";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import type { AssumptionJudge } from "./assumptions.js";
import { RateLimitConsistency } from "./rate-limit-consistency.js";
import { isRefusal, isSuccess } from "../contract/words.js";
import type { Exchange } from "../model/exchange.js";
import { headerOf } from "../apis.js";
import type { CheckName } from "../model/check-registry.js";

export interface HistoryOutcome {
  /** "" passed, text failed. */
  outcome: string;
  /** The earlier exchange the failure depends on (the first use of a nonce), reproduced before it. */
  sentBefore?: Exchange;
}

export interface HistoryCheck {
  /** The check's name (conformance/judge/checks.ts). */
  readonly check: CheckName;
  observe(operationId: string, exchange: Exchange, judge: AssumptionJudge): HistoryOutcome[];
  /** Why the history makes a request that the contract allows one that need not be accepted (a nonce used before). */
  notValid?(exchange: Exchange): string | undefined;
}

function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text ?? "") as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Pay seed, Limits: "nonce — must be unique for each request". A nonce an accepted request used is never accepted
 * again.
 */
class NonceHistory implements HistoryCheck {
  readonly check = "nonce_replay";
  private readonly used = new Map<string, { operationId: string; exchange: Exchange }>();
  private readonly seen = new Set<string>();

  private keyOf(exchange: Exchange): { key: string; nonce: unknown } | undefined {
    const body = jsonObject(exchange.request.body);
    const nonce = body?.nonce;
    return nonce === undefined
      ? undefined
      : { key: `${JSON.stringify(body?.shop_id)} ${JSON.stringify(nonce)}`, nonce };
  }

  notValid(exchange: Exchange): string | undefined {
    const found = this.keyOf(exchange);
    if (!found) return undefined;
    const repeated = this.seen.has(found.key);
    this.seen.add(found.key);
    return repeated ? `its nonce ${JSON.stringify(found.nonce)} was sent before` : undefined;
  }

  observe(operationId: string, exchange: Exchange): HistoryOutcome[] {
    const found = this.keyOf(exchange);
    if (!found || !exchange.response) return [];
    const { key, nonce } = found;
    const first = this.used.get(key);
    const accepted = isSuccess("pay", exchange.response);
    if (!first) {
      if (accepted) this.used.set(key, { operationId, exchange });
      return [{ outcome: "" }];
    }
    return [
      {
        outcome: accepted
          ? `the nonce ${JSON.stringify(nonce)}, already used by an accepted ${first.operationId}, was accepted again (pay seed: the nonce must be unique for each request)`
          : "",
        sentBefore: first.exchange,
      },
    ];
  }
}

/**
 * Catalog seed, Rules 1: "A repeat with the same key returns the same product and creates no second one." Only a
 * repeat with the same key and the same body is judged (what a different body gets, the seed does not say).
 */
class IdempotencyHistory implements HistoryCheck {
  readonly check = "idempotency";
  private readonly first = new Map<string, { body: string; product: string; exchange: Exchange }>();
  observe(operationId: string, exchange: Exchange): HistoryOutcome[] {
    const key = headerOf(exchange.request, "idempotency-key");
    const response = exchange.response;
    if (key === undefined || !response || exchange.request.method === "GET") return [];
    const scope = `${headerOf(exchange.request, "x-seller-api-key") ?? ""} ${operationId} ${key}`;
    const body = canonicalJson(jsonObject(exchange.request.body) ?? exchange.request.body ?? null);
    const earlier = this.first.get(scope);
    if (!earlier) {
      if (isSuccess("catalog", response))
        this.first.set(scope, { body, product: canonicalJson(response.json ?? response.text), exchange });
      return [];
    }
    if (earlier.body !== body) return [];
    const product = canonicalJson(response.json ?? response.text);
    const outcome = !isSuccess("catalog", response)
      ? `the repeat with the same Idempotency-Key and body was answered ${response.status} (catalog seed: a repeat with the same key returns the same product)`
      : product === earlier.product
        ? ""
        : `the repeat with the same Idempotency-Key and body returned another product: ${earlier.product.slice(0, 200)} then ${product.slice(0, 200)} (catalog seed: a repeat with the same key returns the same product and creates no second one)`;
    return [{ outcome, sentBefore: earlier.exchange }];
  }
}

/** The expiry of an access token: `expires_in` of the token response (RFC 6749 §5.1), else a JWT's `exp`. */
function expiryOf(token: string, body: Record<string, unknown>, issuedAt: number): number | undefined {
  if (typeof body.expires_in === "number" && body.expires_in > 0) return issuedAt + body.expires_in * 1000;
  const payload = token.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown };
    return typeof claims.exp === "number" ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Identity seed, Authorization flow 5-6: the application receives an access_token and "calls the userinfo endpoint
 * with the bearer token and receives claims"; its lifetime is not shown, so the token response's expires_in (RFC
 * 6749 §5.1) or the JWT's exp says until when. A token refused (401) before then fails, unless a logout came between
 * or the code it was issued for was exchanged twice (RFC 6749 §4.1.2: those tokens SHOULD be revoked).
 */
class IssuedTokenHistory implements HistoryCheck {
  readonly check = "issued_token_accepted";
  private readonly tokens = new Map<string, { expiresAt: number; code?: string; revocable?: string }>();
  private readonly codes = new Map<string, number>();
  observe(operationId: string, exchange: Exchange): HistoryOutcome[] {
    const response = exchange.response;
    if (!response) return [];
    if (operationId === "exchangeToken") return (this.issued(exchange), []);
    if (operationId === "logout" || operationId === "logoutWithForm") {
      for (const token of this.tokens.values()) token.revocable ??= "a logout came between";
      return [];
    }
    const bearer = /^bearer\s+(\S+)/i.exec(headerOf(exchange.request, "authorization") ?? "")?.[1];
    const token = bearer === undefined ? undefined : this.tokens.get(bearer);
    if (!token) return [];
    const sentAt = exchange.receivedAt - exchange.durationMs;
    // A request sent within a few seconds of the expiry may meet a provider whose clock is ahead: not judged.
    if (sentAt > token.expiresAt - 5_000) return [];
    if (response.status !== 401 || !isRefusal("identity", response)) return [{ outcome: "" }];
    if (token.revocable) return [];
    const left = Math.round((token.expiresAt - sentAt) / 1000);
    return [
      {
        outcome: `an access token the provider issued was refused with 401 ${left} s before it expires (identity seed: the application calls userinfo with the bearer token and receives claims; RFC 6749 §5.1 expires_in)`,
      },
    ];
  }

  private issued(exchange: Exchange): void {
    const form = new URLSearchParams(exchange.request.body ?? "");
    const code = form.get("grant_type") === "authorization_code" ? (form.get("code") ?? undefined) : undefined;
    if (code !== undefined) {
      const times = (this.codes.get(code) ?? 0) + 1;
      this.codes.set(code, times);
      if (times > 1)
        for (const token of this.tokens.values())
          if (token.code === code) token.revocable ??= "its code was exchanged again";
    }
    const body = exchange.response?.json;
    if (!isSuccess("identity", exchange.response) || body === null || typeof body !== "object") return;
    const token = (body as Record<string, unknown>).access_token;
    if (typeof token !== "string") return;
    const expiresAt = expiryOf(token, body as Record<string, unknown>, exchange.receivedAt);
    if (expiresAt !== undefined) this.tokens.set(token, { expiresAt, ...(code !== undefined ? { code } : {}) });
  }
}

/** The contract's x-rate-limit, and the x-assumption on its reset header's unit, as the active run reads them. */
function rateLimitHistory(api: ApiName): HistoryCheck | undefined {
  const document = loadContract(api).document;
  const declared = document.info["x-rate-limit"] as
    { limit: number; windowSeconds: number; headers: { limit: string; remaining: string; reset: string } } | undefined;
  if (!declared) return undefined;
  const unitAssumption = (
    document.components?.headers?.[declared.headers.reset] as { schema?: { "x-assumption"?: string } } | undefined
  )?.schema?.["x-assumption"];
  const consistency = new RateLimitConsistency(declared, unitAssumption);
  return {
    check: "rate_limit_headers_consistent",
    observe(_operationId, exchange, judge) {
      const outcome = consistency.observe(exchange, judge);
      return outcome === undefined ? [] : [{ outcome }];
    },
  };
}

/** The history checks of one API. */
export function historyChecks(api: ApiName): HistoryCheck[] {
  const rateLimit = rateLimitHistory(api);
  return [
    ...(rateLimit ? [rateLimit] : []),
    ...(api === "pay" ? [new NonceHistory()] : []),
    ...(api === "catalog" ? [new IdempotencyHistory()] : []),
    ...(api === "identity" ? [new IssuedTokenHistory()] : []),
  ];
}
