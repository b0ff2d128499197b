// The authorization endpoint's flows: PKCE methods, redirect_uri matching, optional and unknown parameters, prompt
// and max_age. Each sends the browser through the provider (flow.ts) and adds the verdict of its check
// (judge/identity-authorization.ts).
import { decodeJwt } from "jose";
import type { RunContext } from "../context.js";
import { resolveAt } from "../contract/lookup.js";
import {
  maxAge as maxAgeProblems,
  nearMissFollowed,
  nonceOptional as nonceOptionalProblem,
  plainPkceAccepted,
  promptLogin as promptLoginProblems,
  promptNoneSignedIn as promptNoneSignedInProblem,
  promptNoneSignedOut as promptNoneSignedOutProblem,
  type Reauthentication,
  redirectUriMismatch as redirectUriMismatchProblems,
  unknownParameterRefused,
} from "../judge/identity-authorization.js";
import { assumedMessage } from "../judge/identity-words.js";
import { verdictOf } from "../judge/verdict.js";
import { sleep } from "../send/transport.js";
import type { Exchange } from "../model/exchange.js";
import { authorize, type AuthorizeOptions, codeFields, exchangeCode, type Flow, tokensFor } from "./flow.js";
import { nearMisses } from "./near-miss.js";

/**
 * The contract's x-assumption that only S256 is allowed (RFC 7636 still allows plain; RFC 9700 §2.1.1 prefers S256).
 */
export function s256OnlyAssumption(context: RunContext): string | undefined {
  const parameter = context.model("authorize").parameters.find((p) => p.name === "code_challenge_method");
  const schema = parameter ? resolveAt("identity", `${parameter.pointer}/schema`) : {};
  const assumption = (schema as Record<string, unknown>)["x-assumption"];
  return typeof assumption === "string" ? assumption : undefined;
}

/** A code for code_challenge_method=plain breaks the contract's S256-only assumption: a warning unless --strict. */
export async function plainPkceRefused(flow: Flow): Promise<void> {
  const caseLabel = "authorize with code_challenge_method=plain";
  const plain = await authorize(flow, { scope: "openid", pkce: "plain", purpose: caseLabel });
  const message = assumedMessage(flow.judge, {
    check: "pkce_s256_only",
    operationId: "authorize",
    caseLabel,
    problem: plainPkceAccepted(plain),
    assumption: s256OnlyAssumption(flow.context),
  });
  flow.ledger.add(verdictOf("pkce_s256_only", "authorize", message, plain.exchange, caseLabel));
}

/** An address no client registers: the unregistered redirect_uri of redirect_uri_mismatch. */
export const UNREGISTERED_REDIRECT_URI = "https://conformance-unregistered.invalid/callback";

export async function redirectUriMismatch(flow: Flow): Promise<void> {
  const { context } = flow;
  const unregistered = UNREGISTERED_REDIRECT_URI;
  const attempt = await authorize(flow, {
    scope: "openid",
    redirectUri: unregistered,
    purpose: "authorize with an unregistered redirect_uri",
  });
  const grant = await authorize(flow, { scope: "openid", purpose: "authorize" });
  const exchangedElsewhere =
    grant.kind === "code"
      ? await exchangeCode(
          flow,
          codeFields(context, grant, { redirect_uri: unregistered }),
          "exchange a code with another redirect_uri",
        )
      : undefined;
  flow.ledger.add(
    verdictOf(
      "redirect_uri_mismatch",
      "exchangeToken",
      redirectUriMismatchProblems(attempt, unregistered, exchangedElsewhere),
      exchangedElsewhere ?? attempt.exchange,
      "redirect_uri that must be refused",
    ),
  );
}

/** Near misses of the registered redirect_uri, each with one difference: none may be redirected to. */
export async function redirectUriExactMatch(flow: Flow): Promise<void> {
  const problems: string[] = [];
  let failed: Exchange | undefined;
  let last: Exchange | undefined;
  for (const nearMiss of nearMisses(flow.context.options.credentials.redirectUri ?? "")) {
    const attempt = await authorize(flow, {
      scope: "openid",
      redirectUri: nearMiss.uri,
      purpose: `authorize with a redirect_uri that is the registered one with ${nearMiss.how} (it must be refused)`,
    });
    const problem = nearMissFollowed(attempt, nearMiss);
    last = attempt.exchange;
    if (problem) {
      problems.push(problem);
      failed ??= attempt.exchange;
    }
  }
  flow.ledger.add(
    verdictOf(
      "redirect_uri_exact_match",
      "authorize",
      problems.join("; "),
      failed ?? last,
      "authorize with near misses of the registered redirect_uri",
    ),
  );
}

export async function nonceOptional(flow: Flow): Promise<void> {
  const attempt = await authorize(flow, { scope: "openid", nonce: false, purpose: "authorize without nonce" });
  const exchanged =
    attempt.kind === "code" ? await tokensFor(flow, attempt, "exchange a code requested without nonce") : undefined;
  const idToken = exchanged?.tokens?.id_token;
  const nonce = typeof idToken === "string" ? decodeJwt(idToken).nonce : undefined;
  const problem = nonceOptionalProblem(attempt, exchanged, nonce);
  const exchange = exchanged?.exchange ?? attempt.exchange;
  flow.ledger.add(verdictOf("nonce_optional", "authorize", problem, exchange, "authorize without nonce"));
}

export async function unknownParametersIgnored(flow: Flow): Promise<void> {
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { conformance_unknown_parameter: "ignore-me" },
    purpose: "authorize with an unknown parameter",
  });
  flow.ledger.add(
    verdictOf(
      "unknown_parameters_ignored",
      "authorize",
      unknownParameterRefused(attempt),
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
  const problem = promptNoneSignedInProblem(attempt, Boolean(flow.idTokenHint));
  flow.ledger.add(verdictOf("prompt_none", "authorize", problem, attempt.exchange, "prompt=none while signed in"));
}

export async function promptNoneSignedOut(flow: Flow): Promise<void> {
  await flow.driver.reset();
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { prompt: "none" },
    interactive: false,
    purpose: "authorize with prompt=none without a session",
  });
  const problem = promptNoneSignedOutProblem(attempt);
  flow.ledger.add(verdictOf("prompt_none", "authorize", problem, attempt.exchange, "prompt=none without a session"));
}

/** Asks for a sign-in again (prompt=login, max_age) and exchanges the code, for the auth_time of its id_token. */
async function reauthenticate(flow: Flow, options: AuthorizeOptions, exchangeLabel: string): Promise<Reauthentication> {
  const sentAt = Math.floor(Date.now() / 1000);
  const attempt = await authorize(flow, options);
  const run: Reauthentication = { attempt, manual: flow.driver.name === "manual", sentAt };
  if (attempt.kind !== "code") return run;
  run.exchanged = await tokensFor(flow, attempt, exchangeLabel);
  const idToken = run.exchanged.tokens?.id_token;
  const authTime = typeof idToken === "string" ? decodeJwt(idToken).auth_time : undefined;
  if (typeof authTime === "number") run.authTime = authTime;
  return run;
}

/** The exchange a re-authentication's verdict shows: the code's exchange, or the navigation. */
const shownExchange = (run: Reauthentication) => run.exchanged?.exchange ?? run.attempt.exchange;

export async function promptLogin(flow: Flow, firstSignIn: number): Promise<void> {
  // auth_time counts seconds: the new sign-in must happen in a later second than the first one.
  await sleep(1100, flow.context.options.signal);
  const run = await reauthenticate(
    flow,
    { scope: "openid", extra: { prompt: "login" }, purpose: "authorize with prompt=login (sign in again)" },
    "exchange the code of prompt=login",
  );
  const problem = promptLoginProblems(run, firstSignIn);
  flow.ledger.add(verdictOf("prompt_login", "authorize", problem, shownExchange(run), "prompt=login"));
}

export async function maxAge(flow: Flow): Promise<void> {
  // The session must be older than max_age=1 second.
  await sleep(2100, flow.context.options.signal);
  const run = await reauthenticate(
    flow,
    { scope: "openid", extra: { max_age: "1" }, purpose: "authorize with max_age=1 (sign in again)" },
    "exchange the code of max_age=1",
  );
  flow.ledger.add(verdictOf("max_age", "authorize", maxAgeProblems(run), shownExchange(run), "max_age=1"));
}
