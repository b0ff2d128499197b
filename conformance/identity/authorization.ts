// Authorization endpoint checks: PKCE methods, redirect_uri matching, optional and unknown parameters, prompt and
// max_age. Each sends the browser through the provider (flow.ts) and records one check.
import { decodeJwt } from "jose";
import { assumptionBroken } from "../judge/assumptions.js";
import { resolveAt } from "../contract/lookup.js";
import type { Session } from "../send/session.js";
import { type Exchange, sleep } from "../send/transport.js";
import {
  authorize,
  type CodeGrant,
  codeFields,
  describe,
  describeAuthorization,
  exchangeCode,
  type Flow,
  refused,
  tokensFor,
} from "./flow.js";
import { verdictOf } from "../judge/verdict.js";

/**
 * What prompt=none may answer instead of a code when it cannot sign the user in silently (OpenID Connect Core
 * §3.1.2.6).
 */
const SILENT_ERRORS = ["login_required", "interaction_required", "consent_required", "account_selection_required"];
/** Core §3.1.2.1 (id_token_hint): "an invalid_request error MAY be returned if it is not" present with prompt=none. */
const WITHOUT_HINT_ERRORS = [...SILENT_ERRORS, "invalid_request"];

/**
 * The contract's x-assumption that only S256 is allowed (RFC 7636 still allows plain; RFC 9700 §2.1.1 prefers S256).
 */
export function s256OnlyAssumption(session: Session): string | undefined {
  const parameter = session.model("authorize").parameters.find((p) => p.name === "code_challenge_method");
  const schema = parameter ? resolveAt("identity", `${parameter.pointer}/schema`) : {};
  const assumption = (schema as Record<string, unknown>)["x-assumption"];
  return typeof assumption === "string" ? assumption : undefined;
}

/** A code for code_challenge_method=plain breaks the contract's S256-only assumption: a warning unless --strict. */
export async function plainPkceRefused(flow: Flow): Promise<void> {
  const { session } = flow;
  const label = "authorize with code_challenge_method=plain";
  const plain = await authorize(flow, { scope: "openid", pkce: "plain", purpose: label });
  const problem =
    plain.kind === "code"
      ? "a code was issued for code_challenge_method=plain (RFC 7636 §4.2 allows it; the contract allows S256 only, RFC 9700 §2.1.1)"
      : "";
  const assumption = s256OnlyAssumption(session);
  session.ledger.add(
    verdictOf(
      "pkce_s256_only",
      "authorize",
      problem && assumption !== undefined
        ? assumptionBroken(session.judge.assumption("pkce_s256_only", "authorize", label), problem, assumption)
        : problem,
      plain.exchange,
      label,
    ),
  );
}

export async function redirectUriMismatch(flow: Flow): Promise<void> {
  const { session } = flow;
  const problems: string[] = [];
  const unregistered = `${(session.options.credentials.redirectUri ?? "").replace(/\/$/, "")}/conformance-not-registered`;
  const attempt = await authorize(flow, {
    scope: "openid",
    redirectUri: unregistered,
    purpose: "authorize with an unregistered redirect_uri",
  });
  if (attempt.kind !== "failed")
    problems.push(
      `the provider redirected (${describeAuthorization(attempt)}) to the unregistered redirect_uri ${unregistered} (RFC 6749 §4.1.2.1, OpenID Connect Core §3.1.2.1: it must not)`,
    );
  let last = attempt.exchange;
  const grant = await authorize(flow, { scope: "openid", purpose: "authorize" });
  if (grant.kind === "code") {
    last = await exchangeCode(
      session,
      codeFields(session, grant, { redirect_uri: unregistered }),
      "exchange a code with another redirect_uri",
    );
    if (!refused(last))
      problems.push(
        `a code was exchanged with another redirect_uri than the one it was issued for (${describe(last)}; RFC 6749 §4.1.3)`,
      );
  }
  session.ledger.add(
    verdictOf("redirect_uri_mismatch", "exchangeToken", problems.join("; "), last, "redirect_uri that must be refused"),
  );
}

export async function redirectUriExactMatch(flow: Flow): Promise<void> {
  const registered = new URL(flow.session.options.credentials.redirectUri ?? "");
  registered.searchParams.append("conformance", "altered");
  const attempt = await authorize(flow, {
    scope: "openid",
    redirectUri: registered.href,
    purpose: "authorize with a redirect_uri whose query was altered",
  });
  flow.session.ledger.add(
    verdictOf(
      "redirect_uri_exact_match",
      "authorize",
      attempt.kind === "failed"
        ? ""
        : `the provider redirected (${describeAuthorization(attempt)}) to ${registered.href}, which is the registered redirect_uri with another query (exact matching: RFC 9700 §4.1.3, OpenID Connect Core §3.1.2.1)`,
      attempt.exchange,
      "authorize with an altered redirect_uri query",
    ),
  );
}

export async function nonceOptional(flow: Flow): Promise<void> {
  const { session } = flow;
  const attempt = await authorize(flow, { scope: "openid", nonce: false, purpose: "authorize without nonce" });
  let problem =
    attempt.kind === "code"
      ? ""
      : `an authorization request without nonce got ${describeAuthorization(attempt)} (OpenID Connect Core §3.1.2.1: nonce is optional in the code flow)`;
  let exchange = attempt.exchange;
  if (attempt.kind === "code") {
    const result = await tokensFor(session, attempt, "exchange a code requested without nonce");
    exchange = result.exchange;
    const claims = typeof result.tokens?.id_token === "string" ? decodeJwt(result.tokens.id_token) : undefined;
    if (!result.tokens)
      problem = `the code of a request without nonce was refused: ${describe(result.exchange)} (RFC 6749 §4.1.3)`;
    else if (claims?.nonce !== undefined)
      problem =
        "the id_token carries a nonce though the request sent none (OpenID Connect Core §2: nonce is the request's)";
  }
  session.ledger.add(verdictOf("nonce_optional", "authorize", problem, exchange, "authorize without nonce"));
}

export async function unknownParametersIgnored(flow: Flow): Promise<void> {
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { conformance_unknown_parameter: "ignore-me" },
    purpose: "authorize with an unknown parameter",
  });
  flow.session.ledger.add(
    verdictOf(
      "unknown_parameters_ignored",
      "authorize",
      attempt.kind === "code"
        ? ""
        : `an authorization request with an unknown parameter got ${describeAuthorization(attempt)} (RFC 6749 §3.1, OpenID Connect Core §3.1.2.1: unknown parameters are ignored)`,
      attempt.exchange,
      "authorize with an unknown parameter",
    ),
  );
}

/** oidcc-prompt-none-logged-in, with the id_token_hint that Core §3.1.2.1 says SHOULD come with prompt=none. */
export async function promptNoneSignedIn(flow: Flow): Promise<void> {
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { prompt: "none", ...(flow.idTokenHint ? { id_token_hint: flow.idTokenHint } : {}) },
    interactive: false,
    purpose: "authorize with prompt=none while signed in",
  });
  flow.session.ledger.add(
    verdictOf(
      "prompt_none",
      "authorize",
      attempt.kind === "code"
        ? ""
        : `prompt=none with a live session${flow.idTokenHint ? " and its id_token_hint" : ""} got ${describeAuthorization(attempt)} instead of a code (OpenID Connect Core §3.1.2.1)`,
      attempt.exchange,
      "prompt=none while signed in",
    ),
  );
}

export async function promptNoneSignedOut(flow: Flow): Promise<void> {
  await flow.driver.reset();
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { prompt: "none" },
    interactive: false,
    purpose: "authorize with prompt=none without a session",
  });
  const ok = attempt.kind === "error" && WITHOUT_HINT_ERRORS.includes(attempt.error);
  flow.session.ledger.add(
    verdictOf(
      "prompt_none",
      "authorize",
      ok
        ? ""
        : `prompt=none without a session got ${describeAuthorization(attempt)}, expected an error redirect (${WITHOUT_HINT_ERRORS.join(", ")}; OpenID Connect Core §3.1.2.1, §3.1.2.6)`,
      attempt.exchange,
      "prompt=none without a session",
    ),
  );
}

/** auth_time of the id_token a code brings, after exchanging it. */
async function authTimeOf(
  session: Session,
  grant: CodeGrant,
  label: string,
): Promise<{ authTime?: number; exchange: Exchange; problem?: string }> {
  const result = await tokensFor(session, grant, label);
  if (!result.tokens)
    return {
      exchange: result.exchange,
      problem: `the code was refused: ${describe(result.exchange)} (RFC 6749 §4.1.3)`,
    };
  const claims = typeof result.tokens.id_token === "string" ? decodeJwt(result.tokens.id_token) : undefined;
  return { exchange: result.exchange, authTime: typeof claims?.auth_time === "number" ? claims.auth_time : undefined };
}

export async function promptLogin(flow: Flow, firstSignIn: number): Promise<void> {
  const { session, driver } = flow;
  // auth_time counts seconds: the new sign-in must happen in a later second than the first one.
  await sleep(1100, session.options.signal);
  const before = Math.floor(Date.now() / 1000);
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { prompt: "login" },
    purpose: "authorize with prompt=login (sign in again)",
  });
  const problems: string[] = [];
  let exchange = attempt.exchange;
  if (attempt.kind !== "code")
    problems.push(`prompt=login got ${describeAuthorization(attempt)} (OpenID Connect Core §3.1.2.1)`);
  else {
    if (driver.name !== "manual" && attempt.navigation.pages === 0)
      problems.push("prompt=login returned a code without showing the sign-in again (OpenID Connect Core §3.1.2.1)");
    const result = await authTimeOf(session, attempt, "exchange the code of prompt=login");
    exchange = result.exchange;
    if (result.problem) problems.push(result.problem);
    else if (result.authTime !== undefined && result.authTime < before - 1)
      problems.push(
        `the id_token's auth_time ${result.authTime} is that of the earlier sign-in (about ${firstSignIn}), not of the new one (OpenID Connect Core §2, §3.1.2.1)`,
      );
    else if (result.authTime === undefined && driver.name === "manual")
      problems.push(
        "the id_token carries no auth_time, so a re-authentication cannot be told (OpenID Connect Core §2: auth_time when requested)",
      );
  }
  session.ledger.add(verdictOf("prompt_login", "authorize", problems.join("; "), exchange, "prompt=login"));
}

export async function maxAge(flow: Flow): Promise<void> {
  const { session, driver } = flow;
  // The session must be older than max_age=1 second.
  await sleep(2100, session.options.signal);
  const before = Math.floor(Date.now() / 1000);
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { max_age: "1" },
    purpose: "authorize with max_age=1 (sign in again)",
  });
  const problems: string[] = [];
  let exchange = attempt.exchange;
  if (attempt.kind !== "code")
    problems.push(`max_age=1 got ${describeAuthorization(attempt)} (OpenID Connect Core §3.1.2.1)`);
  else {
    if (driver.name !== "manual" && attempt.navigation.pages === 0)
      problems.push(
        "max_age=1 on a session older than a second returned a code without signing in again (OpenID Connect Core §3.1.2.1)",
      );
    const result = await authTimeOf(session, attempt, "exchange the code of max_age=1");
    exchange = result.exchange;
    if (result.problem) problems.push(result.problem);
    else if (result.authTime === undefined)
      problems.push("the id_token of a request with max_age carries no auth_time (OpenID Connect Core §2)");
    else if (result.authTime < before - 1)
      problems.push(
        `the id_token's auth_time ${result.authTime} is older than max_age allows (the request was sent at ${before}; OpenID Connect Core §3.1.2.1)`,
      );
  }
  session.ledger.add(verdictOf("max_age", "authorize", problems.join("; "), exchange, "max_age=1"));
}
