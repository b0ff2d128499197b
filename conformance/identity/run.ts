// OpenID Connect provider checks for identity, at the level of the OpenID Foundation's Basic OP and Config OP plans
// where they apply to the contract (docs/guide/identity-conformance.md maps each check to its test modules).
// Discovery and JWKS need nothing; the flow checks need a registered client and a way through the provider's pages,
// which a sign-in driver provides (sign-in/: HTML forms by default, --browser, --manual). Fail closed: when the
// sign-in cannot complete, the sign_in check fails with the real cause and the run exits 1. The flows live in
// identity/ by endpoint: discovery (and JWKS), authorization, tokens, userinfo and logout; flow.ts holds the steps
// they share and paths.ts the one resolver of where each operation lives (the discovery document's endpoint, the
// contract's path only where it names none). The flows only send: each returns
// what it saw as a scenario (model/identity-scenarios.ts), and the judge runs the identity checks on it
// (judge/identity-scenarios.ts).
import { DISCOVERY_CHECKS, FLOW_CHECKS } from "../model/identity-check-groups.js";
import type { IdentityScenario, SignInScenario } from "../model/identity-scenarios.js";
import type { Scenario } from "../model/scenario.js";
import type { CaseSender } from "../send/sender.js";
import { openSignInDriver } from "../sign-in/open.js";
import {
  authorizationByPost,
  maxAge,
  nonceOptional,
  plainPkce,
  promptLogin,
  promptNoneSignedIn,
  MUST_SUCCEED,
  mustSucceed,
  promptNoneSignedOut,
  redirectUriExactMatch,
  redirectUriMismatch,
  responseTypeMissing,
  unknownParameters,
} from "./authorization.js";
import { discovery, jwks } from "./discovery.js";
import { authorize, type Flow, type IdentityParts, tokensFor, traced, trailOf } from "./flow.js";
import { logout } from "./logout.js";
import { logoutModules } from "./logout-modules.js";
import { idTokenPayload } from "./secret-claims.js";
import {
  atHash,
  clientAuthentication,
  codeForLaterReuse,
  codeReuse,
  idToken,
  pkceEnforcement,
  refreshTokens,
  tokenErrors,
  wrongClientSecret,
} from "./tokens.js";
import { alternateHappyFlow, userinfoByScope, userinfoMethods } from "./userinfo.js";
import type { CheckName } from "../model/check-registry.js";
import type { ItemParts } from "../item-parts.js";

/**
 * The identity step: discovery and JWKS, then the flows through a sign-in driver. Every request goes through the
 * step's sender; what each flow saw is returned as a scenario, in the order the flows ran.
 */
export async function runIdentityChecks(
  { context, judge, tokens, sessions }: Pick<ItemParts, "context" | "judge" | "tokens" | "sessions">,
  send: CaseSender,
): Promise<Scenario[]> {
  const parts: IdentityParts = { context, send, judge, tokens, sessions };
  const scenarios: IdentityScenario[] = [];
  const { checks, credentials, operations } = context.options;
  const selected = (...ids: string[]) => operations.length === 0 || ids.some((id) => operations.includes(id));
  const read =
    selected("getOpenIdConfiguration", "authorize", "exchangeToken", "getUserInfo") &&
    DISCOVERY_CHECKS.some((c) => checks.has(c))
      ? await discovery(parts)
      : undefined;
  if (read) scenarios.push(read);
  if (selected("getJwks") && (checks.has("jwks_shape") || checks.has("jwks_unique_kids")))
    scenarios.push(await jwks(parts));

  if (!selected("authorize", "exchangeToken", "getUserInfo", "logout", "logoutWithForm")) return scenarios;
  if (!FLOW_CHECKS.some((c) => checks.has(c))) return scenarios;
  const missing = (["clientId", "clientSecret", "redirectUri"] as const).filter((k) => !credentials[k]);
  if (missing.length) {
    scenarios.push({ family: "identity", name: "no client", exchanges: [], authorizations: [], missing });
    return scenarios;
  }
  const judgedBefore = checks.has("token_errors") ? ["token_errors"] : [];
  if (checks.has("token_errors")) scenarios.push(await tokenErrors(parts));

  // As an OpenID Connect client does, the flows follow the endpoints the discovery document names: the run read it
  // first (followDiscovery), and the sender sends each operation there.
  const driver = await openSignInDriver(context.options.identity ?? { driver: "form" }, {
    send: (request) => send.sendAsIs(request),
    signIn: credentials.signIn ?? {},
    timeoutMs: context.options.timeoutMs,
  });
  // Kept open after the flows: the run ends the sessions of its browser at its end, and closes it then (cleanup.ts).
  sessions.keep(driver);
  scenarios.push(...(await runFlows({ ...parts, driver }, judgedBefore)));
  return scenarios;
}

/** The sign-in every flow starts from, and its first code exchanged properly. */
async function firstSignIn(parent: Flow, judgedBefore: string[]): Promise<SignInScenario> {
  const flow = traced(parent);
  const first = await authorize(flow, { scope: "openid profile email", purpose: "sign in" });
  const scenario: SignInScenario = { family: "identity", name: "sign in", ...trailOf(flow), first, judgedBefore };
  if (first.kind !== "code") return scenario;
  return { ...scenario, fresh: await tokensFor(flow, first, "exchange a fresh code") };
}

async function runFlows(flow: Flow, judgedBefore: string[]): Promise<IdentityScenario[]> {
  const { checks } = flow.context.options;
  const run = (check: CheckName) => checks.has(check) && !flow.send.aborted;
  const signInStarted = Math.floor(Date.now() / 1000);
  const signIn = await firstSignIn(flow, judgedBefore);
  const { first, fresh } = signIn;
  // Fail closed: without a sign-in and its tokens no flow can run; the judge says so for each of their checks.
  if (first.kind !== "code" || !fresh?.tokens) return [signIn];
  const scenarios: IdentityScenario[] = [signIn];

  // The first code's tokens serve the id_token and userinfo flows before code_reuse replays the code (a provider
  // should then revoke those tokens, RFC 6749 §4.1.2).
  const { tokens, exchange } = fresh;
  const firstClaims = idTokenPayload(tokens.id_token);
  if (firstClaims)
    flow.session = { sub: firstClaims.sub, authTime: firstClaims.auth_time, signedInBy: Math.ceil(Date.now() / 1000) };
  // oidcc-codereuse-30seconds' clock starts here, and its replay waits at the end for only what the flows left.
  const replayLater = run("code_reuse_30_seconds") ? await codeForLaterReuse(flow) : undefined;
  let idTokenSub: unknown;
  if (run("id_token_signature_and_claims") || run("id_token_by_scope")) {
    const verified = await idToken(flow, tokens, first, exchange);
    idTokenSub = verified.verified?.sub;
    scenarios.push(verified);
  }
  if (run("id_token_at_hash")) scenarios.push(atHash(tokens, exchange));
  if (run("userinfo_by_scope") || run("granted_scope_claims") || run("id_token_by_scope"))
    scenarios.push(await userinfoByScope(flow, { requested: first.scope, issued: exchange, tokens }, idTokenSub));
  if (run("userinfo_methods")) scenarios.push(await userinfoMethods(flow, tokens.access_token));
  // A refresh token without offline_access is allowed: the seed says one is included when offline_access was granted,
  // not only then, and OpenID Connect Core §11 does not forbid it.
  if (typeof tokens.id_token === "string") flow.idTokenHint = tokens.id_token;
  if (run("code_reuse") || run("code_reuse_revokes_tokens"))
    scenarios.push(await codeReuse(flow, first, tokens, run("code_reuse_revokes_tokens")));

  if (run("token_errors")) scenarios.push(await wrongClientSecret(flow));
  if (run("pkce_enforcement")) scenarios.push(await pkceEnforcement(flow));
  if (run("client_authentication_required")) scenarios.push(await clientAuthentication(flow));
  if (run("pkce_s256_only")) scenarios.push(await plainPkce(flow));
  if (run("redirect_uri_mismatch")) scenarios.push(await redirectUriMismatch(flow));
  if (run("redirect_uri_exact_match")) scenarios.push(await redirectUriExactMatch(flow));
  if (run("nonce_optional")) scenarios.push(await nonceOptional(flow));
  if (run("unknown_parameters_ignored")) scenarios.push(await unknownParameters(flow));
  for (const request of MUST_SUCCEED) if (run(request.check)) scenarios.push(await mustSucceed(flow, request));
  if (run("response_type_missing")) scenarios.push(await responseTypeMissing(flow));
  if (run("prompt_none")) scenarios.push(await promptNoneSignedIn(flow));
  if (run("prompt_login")) scenarios.push(await promptLogin(flow, signInStarted));
  if (run("max_age")) scenarios.push(await maxAge(flow));
  // After the checks that compare with the first sign-in's session: a browser sends no SameSite=Lax session cookie
  // with a POST from another site, so the provider may sign the user in again, in a new session.
  if (run("authorization_by_post")) scenarios.push(await authorizationByPost(flow));
  if (run("alternate_happy_flow")) scenarios.push(await alternateHappyFlow(flow));
  if (run("refresh_token_offline_access") || run("refresh_token_client_bound"))
    scenarios.push(await refreshTokens(flow));
  const signedOut = await logout(flow);
  if (signedOut) scenarios.push(signedOut);
  const modules = await logoutModules(flow);
  if (modules) scenarios.push(modules);
  if (run("prompt_none")) scenarios.push(await promptNoneSignedOut(flow));
  if (replayLater) scenarios.push(await replayLater());
  return scenarios;
}
