// The authorization endpoint's flows: PKCE methods, redirect_uri matching, optional and unknown parameters, prompt
// and max_age. Each sends the browser through the provider (flow.ts) and returns what it saw as a scenario, which
// judge/identity-authorization-scenarios.ts judges.
import { decodeJwt } from "jose";
import type { Reauthentication } from "../model/identity-facts.js";
import type {
  MaxAgeScenario,
  NonceOptionalScenario,
  PlainPkceScenario,
  PromptLoginScenario,
  PromptNoneSignedInScenario,
  PromptNoneSignedOutScenario,
  RedirectUriExactMatchScenario,
  RedirectUriMismatchScenario,
  Trail,
  UnknownParametersScenario,
} from "../model/identity-scenarios.js";
import { sleep } from "../send/transport.js";
import {
  authorize,
  type AuthorizeOptions,
  codeFields,
  exchangeCode,
  type Flow,
  tokensFor,
  traced,
  trailOf,
} from "./flow.js";
import { nearMisses } from "./near-miss.js";

/** A code for code_challenge_method=plain breaks the contract's S256-only assumption. */
export async function plainPkce(parent: Flow): Promise<PlainPkceScenario> {
  const flow = traced(parent);
  const purpose = "authorize with code_challenge_method=plain";
  const attempt = await authorize(flow, { scope: "openid", pkce: "plain", purpose });
  return { family: "identity", name: "plain pkce", ...trailOf(flow), attempt };
}

/** An address no client registers: the unregistered redirect_uri of redirect_uri_mismatch. */
export const UNREGISTERED_REDIRECT_URI = "https://conformance-unregistered.invalid/callback";

export async function redirectUriMismatch(parent: Flow): Promise<RedirectUriMismatchScenario> {
  const flow = traced(parent);
  const unregistered = UNREGISTERED_REDIRECT_URI;
  const toUnregistered = await authorize(flow, {
    scope: "openid",
    redirectUri: unregistered,
    purpose: "authorize with an unregistered redirect_uri",
  });
  const grant = await authorize(flow, { scope: "openid", purpose: "authorize" });
  const exchangedElsewhere =
    grant.kind === "code"
      ? await exchangeCode(
          flow,
          codeFields(flow.context, grant, { redirect_uri: unregistered }),
          "exchange a code with another redirect_uri",
        )
      : undefined;
  return {
    family: "identity",
    name: "redirect uri mismatch",
    ...trailOf(flow),
    unregistered,
    toUnregistered,
    exchangedElsewhere,
  };
}

/** Near misses of the registered redirect_uri, each with one difference: none may be redirected to. */
export async function redirectUriExactMatch(parent: Flow): Promise<RedirectUriExactMatchScenario> {
  const flow = traced(parent);
  const attempts: RedirectUriExactMatchScenario["attempts"] = [];
  for (const nearMiss of nearMisses(flow.context.options.credentials.redirectUri ?? "")) {
    const attempt = await authorize(flow, {
      scope: "openid",
      redirectUri: nearMiss.uri,
      purpose: `authorize with a redirect_uri that is the registered one with ${nearMiss.how} (it must be refused)`,
    });
    attempts.push({ nearMiss, attempt });
  }
  return { family: "identity", name: "redirect uri exact match", ...trailOf(flow), attempts };
}

export async function nonceOptional(parent: Flow): Promise<NonceOptionalScenario> {
  const flow = traced(parent);
  const attempt = await authorize(flow, { scope: "openid", nonce: false, purpose: "authorize without nonce" });
  const exchanged =
    attempt.kind === "code" ? await tokensFor(flow, attempt, "exchange a code requested without nonce") : undefined;
  const idToken = exchanged?.tokens?.id_token;
  const idTokenNonce = typeof idToken === "string" ? decodeJwt(idToken).nonce : undefined;
  return { family: "identity", name: "nonce optional", ...trailOf(flow), attempt, exchanged, idTokenNonce };
}

export async function unknownParameters(parent: Flow): Promise<UnknownParametersScenario> {
  const flow = traced(parent);
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { conformance_unknown_parameter: "ignore-me" },
    purpose: "authorize with an unknown parameter",
  });
  return { family: "identity", name: "unknown parameters", ...trailOf(flow), attempt };
}

/** oidcc-prompt-none-logged-in, with the id_token_hint that Core §3.1.2.1 says SHOULD come with prompt=none. */
export async function promptNoneSignedIn(parent: Flow): Promise<PromptNoneSignedInScenario> {
  const flow = traced(parent);
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { prompt: "none", ...(flow.idTokenHint ? { id_token_hint: flow.idTokenHint } : {}) },
    interactive: false,
    purpose: "authorize with prompt=none while signed in",
  });
  const hinted = Boolean(flow.idTokenHint);
  return { family: "identity", name: "prompt none signed in", ...trailOf(flow), attempt, hinted };
}

export async function promptNoneSignedOut(parent: Flow): Promise<PromptNoneSignedOutScenario> {
  const flow = traced(parent);
  await flow.driver.reset();
  const attempt = await authorize(flow, {
    scope: "openid",
    extra: { prompt: "none" },
    interactive: false,
    purpose: "authorize with prompt=none without a session",
  });
  return { family: "identity", name: "prompt none signed out", ...trailOf(flow), attempt };
}

/** Asks for a sign-in again (prompt=login, max_age) and exchanges the code, for the auth_time of its id_token. */
async function reauthenticate(
  flow: Flow & Trail,
  options: AuthorizeOptions,
  exchangeLabel: string,
): Promise<Reauthentication> {
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

export async function promptLogin(parent: Flow, firstSignIn: number): Promise<PromptLoginScenario> {
  const flow = traced(parent);
  // auth_time counts seconds: the new sign-in must happen in a later second than the first one.
  await sleep(1100, flow.context.options.signal);
  const run = await reauthenticate(
    flow,
    { scope: "openid", extra: { prompt: "login" }, purpose: "authorize with prompt=login (sign in again)" },
    "exchange the code of prompt=login",
  );
  return { family: "identity", name: "prompt login", ...trailOf(flow), run, firstSignIn };
}

export async function maxAge(parent: Flow): Promise<MaxAgeScenario> {
  const flow = traced(parent);
  // The session must be older than max_age=1 second.
  await sleep(2100, flow.context.options.signal);
  const run = await reauthenticate(
    flow,
    { scope: "openid", extra: { max_age: "1" }, purpose: "authorize with max_age=1 (sign in again)" },
    "exchange the code of max_age=1",
  );
  return { family: "identity", name: "max age", ...trailOf(flow), run };
}
