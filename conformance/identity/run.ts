// OpenID Connect provider checks for identity, at the level of the OpenID Foundation's Basic OP and Config OP plans
// where they apply to the contract (docs/guide/identity-conformance.md maps each check to its test modules).
// Discovery and JWKS need nothing; the flow checks need a registered client and a way through the provider's pages,
// which a sign-in driver provides (sign-in/: HTML forms by default, --browser, --manual). Fail closed: when the
// sign-in cannot complete, the sign_in check fails with the real cause and the run exits 1. The flows live in
// identity/ by endpoint: discovery (and JWKS), authorization, tokens, userinfo and logout; flow.ts holds the steps
// they share and paths.ts the one lookup of an endpoint path in the contract. What passes or fails is decided by
// the identity checks in judge/ (identity-discovery, -authorization, -tokens, -userinfo, -logout).
import type { RunContext } from "../context.js";
import { freshCodeRefused, signInFailure } from "../judge/identity-authorization.js";
import { DISCOVERY_CHECKS, FLOW_CHECKS } from "../judge/identity-check-list.js";
import { describe } from "../judge/identity-words.js";
import type { Judge } from "../judge/judge.js";
import { verdictOf } from "../judge/verdict.js";
import type { Ledger } from "../report/ledger.js";
import type { CaseSender } from "../send/sender.js";
import { openSignInDriver } from "../sign-in/open.js";
import {
  maxAge,
  nonceOptional,
  plainPkceRefused,
  promptLogin,
  promptNoneSignedIn,
  promptNoneSignedOut,
  redirectUriExactMatch,
  redirectUriMismatch,
  unknownParametersIgnored,
} from "./authorization.js";
import { checkDiscovery, checkJwks, readDiscovery } from "./discovery.js";
import { authorize, type Flow, type IdentityParts, tokensFor } from "./flow.js";
import { logout } from "./logout.js";
import {
  checkAtHash,
  checkIdToken,
  clientAuthenticationRequired,
  codeReuse,
  pkceEnforcement,
  refreshTokens,
  tokenErrors,
  wrongClientSecret,
} from "./tokens.js";
import { userinfoByScope, userinfoMethods } from "./userinfo.js";

const CREDENTIAL_FLAGS = {
  clientId: "--client-id (IDENTITY_CLIENT_ID)",
  clientSecret: "--client-secret (IDENTITY_CLIENT_SECRET)",
  redirectUri: "--redirect-uri (IDENTITY_REDIRECT_URI)",
};

/**
 * The identity step: the discovery and JWKS checks, then the flow checks through a sign-in driver. Every request
 * goes through the step's sender; the verdicts go to the ledger.
 */
export async function runIdentityChecks(
  context: RunContext,
  send: CaseSender,
  judge: Judge,
  ledger: Ledger,
): Promise<void> {
  const parts: IdentityParts = { context, send, judge, ledger };
  const { checks, credentials, operations } = context.options;
  const selected = (...ids: string[]) => operations.length === 0 || ids.some((id) => operations.includes(id));
  const discovery =
    selected("getOpenIdConfiguration", "authorize", "exchangeToken", "getUserInfo") &&
    DISCOVERY_CHECKS.some((c) => checks.has(c))
      ? await checkDiscovery(parts)
      : undefined;
  if (selected("getJwks") && (checks.has("jwks_shape") || checks.has("jwks_unique_kids"))) await checkJwks(parts);

  const flowChecks = FLOW_CHECKS.filter((c) => checks.has(c));
  if (!selected("authorize", "exchangeToken", "getUserInfo", "logout", "logoutWithForm") || flowChecks.length === 0)
    return;
  const missing = (["clientId", "clientSecret", "redirectUri"] as const).filter((k) => !credentials[k]);
  if (missing.length) {
    const reason = `needs ${missing.map((k) => CREDENTIAL_FLAGS[k]).join(", ")}`;
    for (const check of flowChecks) ledger.decide({ about: "check", name: check, decision: "cannot run", reason });
    return;
  }
  if (checks.has("token_errors")) await tokenErrors(parts);

  // As an OpenID Connect client does, the flows follow the endpoints the discovery document names.
  const document = discovery?.document ?? (await readDiscovery(context, send));
  const driver = await openSignInDriver(context.options.identity ?? { driver: "form" }, {
    send: (request) => send.sendAsIs(request),
    signIn: credentials.signIn ?? {},
    timeoutMs: context.options.timeoutMs,
  });
  try {
    await runFlows({ ...parts, driver, document });
  } finally {
    await driver.close();
  }
}

/** The sign-in every flow check starts from and the checks on its tokens; false when the flows cannot go on. */
async function firstSignIn(
  flow: Flow,
  run: (check: string) => boolean,
  skipRest: (reason: string) => void,
): Promise<boolean> {
  const { ledger } = flow;
  // Fail closed: without a sign-in no flow check can run, and that is a failure of the run, not a pass.
  const first = await authorize(flow, { scope: "openid profile email", purpose: "sign in" });
  const cause = signInFailure(first);
  const message = first.kind === "code" ? "" : `could not sign in to get an authorization code: ${cause}`;
  ledger.add(verdictOf("sign_in", "authorize", message, first.exchange, "sign in"));
  if (first.kind !== "code") {
    skipRest(`the sign-in did not complete: ${cause}`);
    return false;
  }

  // The first code is exchanged properly; its tokens serve the id_token and userinfo checks before code_reuse
  // replays the code (a provider should then revoke those tokens, RFC 6749 §4.1.2).
  const label = "exchange a fresh code";
  const { exchange: tokensExchange, tokens } = await tokensFor(flow, first, label);
  if (!tokens) {
    ledger.add(verdictOf("code_reuse", "exchangeToken", freshCodeRefused(tokensExchange), tokensExchange, label));
    skipRest(`the provider refused a fresh code with its verifier: ${describe(tokensExchange)}`);
    return false;
  }
  let idTokenSub: unknown;
  if (run("id_token_signature_and_claims")) idTokenSub = await checkIdToken(flow, tokens, first, tokensExchange);
  if (run("id_token_at_hash")) checkAtHash(flow, tokens, tokensExchange);
  if (run("userinfo_by_scope") || run("granted_scope_claims"))
    await userinfoByScope(flow, tokens.access_token, first.scope, idTokenSub);
  if (run("userinfo_methods")) await userinfoMethods(flow, tokens.access_token);
  // A refresh token without offline_access is allowed: the seed says one is included when offline_access was granted,
  // not only then, and OpenID Connect Core §11 does not forbid it.
  if (typeof tokens.id_token === "string") flow.idTokenHint = tokens.id_token;
  if (run("code_reuse") || run("code_reuse_revokes_tokens")) await codeReuse(flow, first, tokens, run);
  return true;
}

async function runFlows(flow: Flow): Promise<void> {
  const { context, send, ledger } = flow;
  const { checks } = context.options;
  const run = (check: string) => checks.has(check) && !send.aborted;
  // Could not run, not skipped: a run whose flow checks never ran must not pass, whichever checks were selected
  // (with sign_in excluded or not selected nothing else would fail it).
  const skipRest = (reason: string) => {
    for (const check of FLOW_CHECKS)
      if (checks.has(check) && !ledger.tallies.has(check))
        ledger.decide({ about: "check", name: check, decision: "cannot run", reason });
  };
  const signInStarted = Math.floor(Date.now() / 1000);
  if (!(await firstSignIn(flow, run, skipRest))) return;
  if (run("token_errors")) await wrongClientSecret(flow);
  if (run("pkce_enforcement")) await pkceEnforcement(flow);
  if (run("client_authentication_required")) await clientAuthenticationRequired(flow);
  if (run("pkce_s256_only")) await plainPkceRefused(flow);
  if (run("redirect_uri_mismatch")) await redirectUriMismatch(flow);
  if (run("redirect_uri_exact_match")) await redirectUriExactMatch(flow);
  if (run("nonce_optional")) await nonceOptional(flow);
  if (run("unknown_parameters_ignored")) await unknownParametersIgnored(flow);
  if (run("prompt_none")) await promptNoneSignedIn(flow);
  if (run("prompt_login")) await promptLogin(flow, signInStarted);
  if (run("max_age")) await maxAge(flow);
  if (run("refresh_token_offline_access")) await refreshTokens(flow);
  await logout(flow);
  if (run("prompt_none")) await promptNoneSignedOut(flow);
}
