// The authorization endpoint's flows: PKCE methods, redirect_uri matching, optional and unknown parameters, requests
// that must succeed (with the parameters every OP supports), the request by POST, a missing response_type, prompt
// and max_age.
// Each sends the browser through the provider (flow.ts) and returns what it saw as a scenario, which
// judge/identity-authorization-scenarios.ts judges.
import { decodeJwt } from "jose";
import type { CheckName } from "../model/check-registry.js";
import type { Reauthentication } from "../model/identity-facts.js";
import type {
  AuthorizationByPostScenario,
  MaxAgeScenario,
  MustSucceedScenario,
  NonceOptionalScenario,
  PlainPkceScenario,
  PromptLoginScenario,
  PromptNoneSignedInScenario,
  PromptNoneSignedOutScenario,
  RedirectUriExactMatchScenario,
  RedirectUriMismatchScenario,
  ResponseTypeMissingScenario,
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
  sameSessionAs,
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

/**
 * An authorization request that must end in a code and tokens as a plain one does, with one difference from it (the
 * OpenID Foundation's Basic OP modules of each check).
 */
export interface MustSucceed {
  check: CheckName;
  /** The request, for messages and the trail. */
  what: string;
  /** The section that requires it to succeed. */
  section: string;
  /** Its one difference from a plain request. */
  options: (flow: Flow) => Pick<AuthorizeOptions, "extra">;
  /** Why it is not sent to this provider; "" when it is. */
  skip?: (flow: Flow) => string;
  /** An id_token claim it makes REQUIRED. */
  requiredClaim?: { name: string; section: string };
  /** Sent on the first sign-in's session with no new sign-in: its id_token has that sign-in's sub and auth_time. */
  sameSession?: true;
}

/** A parameter OpenID Connect Core §15.1 says every OP supports, at least without an error. */
const mandatory = (check: CheckName, name: string, value: string, section: string): MustSucceed => ({
  check,
  what: `an authorization request with ${name}=${value}`,
  section: `OpenID Connect Core §15.1, ${section}: its use must not result in an error`,
  options: () => ({ extra: { [name]: value } }),
});

/** What the discovery document lists under `member`, as strings. */
const advertised = (flow: Flow, member: string): string[] => {
  const values = flow.send.discovered(member);
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === "string") : [];
};

/** The issuer's host name, for the suite's default login_hint. */
const issuerHost = (flow: Flow) => {
  const issuer = flow.send.discovered("issuer");
  return new URL(typeof issuer === "string" && URL.canParse(issuer) ? issuer : flow.context.options.baseUrl).hostname;
};

/** The values the OpenID Foundation's modules send (their defaults where they take a configured one). */
export const MUST_SUCCEED: readonly MustSucceed[] = [
  mandatory("display_page", "display", "page", "§3.1.2.1"),
  mandatory("display_popup", "display", "popup", "§3.1.2.1"),
  {
    ...mandatory("max_age_10000", "max_age", "10000", "§3.1.2.1"),
    requiredClaim: { name: "auth_time", section: "OpenID Connect Core §2: REQUIRED when max_age is requested" },
    sameSession: true,
  },
  {
    check: "login_hint",
    what: "an authorization request with login_hint",
    section: "OpenID Connect Core §3.1.2.1: login_hint is a hint, its use left to the OP",
    options: (flow) => ({ extra: { login_hint: `buffy@${issuerHost(flow)}` } }),
  },
  mandatory("ui_locales", "ui_locales", "se", "§3.1.2.1"),
  mandatory("claims_locales", "claims_locales", "se", "§5.2"),
  {
    check: "acr_values",
    what: "an authorization request with acr_values",
    section: "OpenID Connect Core §15.1, §3.1.2.1: its use must not result in an error",
    options: (flow) => ({ extra: { acr_values: advertised(flow, "acr_values_supported").join(" ") || "1 2" } }),
  },
  {
    check: "claims_essential",
    what: "an authorization request with claims asking for name as an essential userinfo claim",
    section: "OpenID Connect Core §5.5, §5.5.1",
    options: () => ({ extra: { claims: JSON.stringify({ userinfo: { name: { essential: true } } }) } }),
    skip: (flow) =>
      flow.send.discovered("claims_parameter_supported") === true
        ? ""
        : "the discovery document does not advertise claims_parameter_supported: true (the claims parameter is OPTIONAL, OpenID Connect Core §5.5)",
  },
];

export async function mustSucceed(parent: Flow, request: MustSucceed): Promise<MustSucceedScenario> {
  const flow = traced(parent);
  const { check, what, section } = request;
  const scenario = { family: "identity", name: "must succeed", check, what, section } as const;
  const skipped = request.skip?.(flow);
  if (skipped) return { ...scenario, ...trailOf(flow), skipped };
  const attempt = await authorize(flow, { scope: "openid", purpose: what, ...request.options(flow) });
  const exchanged =
    attempt.kind === "code" ? await tokensFor(flow, attempt, `exchange the code of ${what}`) : undefined;
  const idToken = exchanged?.tokens?.id_token;
  const claim = request.requiredClaim;
  const requiredClaim =
    claim && typeof idToken === "string" ? { ...claim, value: decodeJwt(idToken)[claim.name] } : undefined;
  const sameSession = request.sameSession ? sameSessionAs(flow, exchanged) : undefined;
  return {
    ...scenario,
    ...trailOf(flow),
    attempt,
    exchanged,
    ...(requiredClaim ? { requiredClaim } : {}),
    ...(sameSession ? { sameSession } : {}),
  };
}

/**
 * oidcc-ensure-post-request-succeeds: the authorization request sent by POST as a form to the advertised endpoint
 * (OpenID Connect Core §3.1.2.1: the Authorization Server MUST support GET and POST), its code exchanged.
 */
export async function authorizationByPost(parent: Flow): Promise<AuthorizationByPostScenario> {
  const flow = traced(parent);
  const scenario = { family: "identity", name: "authorization by post", ...trailOf(flow) } as const;
  if (flow.driver.name === "manual")
    return { ...scenario, skipped: "--manual opens addresses in a person's browser: it cannot send a form by POST" };
  const what = "an authorization request by POST";
  const attempt = await authorize(flow, { scope: "openid", post: true, purpose: `authorize by POST (a form)` });
  const exchanged =
    attempt.kind === "code" ? await tokensFor(flow, attempt, `exchange the code of ${what}`) : undefined;
  return { ...scenario, attempt, exchanged };
}

export async function responseTypeMissing(parent: Flow): Promise<ResponseTypeMissingScenario> {
  const flow = traced(parent);
  const attempt = await authorize(flow, {
    scope: "openid",
    omit: ["response_type"],
    purpose: "authorize without response_type",
  });
  return { family: "identity", name: "response type missing", ...trailOf(flow), attempt };
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
  // Its id_token is compared with the first sign-in's (oidcc-prompt-none-logged-in, oidcc-id-token-hint).
  const exchanged =
    attempt.kind === "code" ? await tokensFor(flow, attempt, "exchange the code of prompt=none") : undefined;
  const sameSession = sameSessionAs(flow, exchanged);
  return {
    family: "identity",
    name: "prompt none signed in",
    ...trailOf(flow),
    attempt,
    hinted,
    exchanged,
    ...(sameSession ? { sameSession } : {}),
  };
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
  // auth_time counts seconds: the new sign-in must happen in a later second than the first one. And the judge allows
  // the first one's auth_time a second of rounding (judge/identity-authorization.ts, promptLogin), so that an
  // auth_time of the first sign-in shows only from two seconds on: however fast the flows before it went (the first
  // sign-in started at `firstSignIn`, and may have ended a second later), the request waits for the third second.
  await sleep(Math.max(1100, (firstSignIn + 3) * 1000 - Date.now()), flow.context.options.signal);
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
