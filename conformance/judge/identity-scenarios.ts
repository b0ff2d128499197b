// The checks that read the identity scenarios (model/identity-scenarios.ts): state_echoed on every authorization
// request a flow sent, no_secret_claims on every token and userinfo answer it got, then the checks of the scenario
// itself, one function per scenario name (by endpoint in identity-*-scenarios.ts), each returning its findings. The
// rules are the pure checks of identity-authorization, -claims, -discovery, -tokens, -userinfo and -logout.
import type { JudgeContext } from "../context.js";
import type { Decision, Finding, Verdict } from "../model/finding.js";
import type { IdentityScenario, NoClientScenario, SignInScenario } from "../model/identity-scenarios.js";
import { codeEntropy, freshCodeRefused, issReturned, signInFailure, stateEchoed } from "./identity-authorization.js";
import { EXPIRES_IN_IS_RECOMMENDED, expiresInMissing } from "./identity-tokens.js";
import { assumedVerdicts } from "./identity-words.js";
import type { CodeExchange } from "../model/identity-facts.js";
import {
  judgeAuthorizationByPost,
  judgeMaxAge,
  judgeMustSucceed,
  judgeNonceOptional,
  judgePlainPkce,
  judgePromptLogin,
  judgePromptNoneSignedIn,
  judgePromptNoneSignedOut,
  judgeRedirectUriExactMatch,
  judgeRedirectUriMismatch,
  judgeResponseTypeMissing,
  judgeUnknownParameters,
} from "./identity-authorization-scenarios.js";
import { FLOW_CHECKS } from "../model/identity-check-groups.js";
import {
  judgeAlternateHappyFlow,
  judgeDiscovery,
  judgeEndpoints,
  judgeJwks,
  judgeLogout,
  judgeUserinfoByScope,
  judgeUserinfoMethods,
} from "./identity-endpoint-scenarios.js";
import {
  judgeAtHash,
  judgeClientAuthentication,
  judgeCodeReuse,
  judgeCodeReuseLater,
  judgeIdToken,
  judgePkceEnforcement,
  judgeRefresh,
  judgeTokenErrors,
  judgeWrongClientSecret,
} from "./identity-token-scenarios.js";
import { describe } from "./identity-words.js";
import { judgeLogoutModules } from "./identity-logout-modules.js";
import { cannotRunOf, verdictOf } from "./verdict.js";
import { secretClaims } from "./identity-claims.js";
import { claimDocuments } from "../identity/secret-claims.js";

type ScenarioJudge<S extends IdentityScenario> = (scenario: S, context: JudgeContext) => Finding[];

const JUDGES: { [N in IdentityScenario["name"]]: ScenarioJudge<Extract<IdentityScenario, { name: N }>> } = {
  discovery: judgeDiscovery,
  endpoints: judgeEndpoints,
  jwks: judgeJwks,
  "no client": judgeNoClient,
  "token errors": judgeTokenErrors,
  "sign in": judgeSignIn,
  "id token": judgeIdToken,
  "at hash": judgeAtHash,
  "userinfo by scope": judgeUserinfoByScope,
  "userinfo methods": judgeUserinfoMethods,
  "code reuse": judgeCodeReuse,
  "code reuse after 30 seconds": judgeCodeReuseLater,
  "wrong client secret": judgeWrongClientSecret,
  "client authentication": judgeClientAuthentication,
  "pkce enforcement": judgePkceEnforcement,
  "plain pkce": judgePlainPkce,
  "redirect uri mismatch": judgeRedirectUriMismatch,
  "redirect uri exact match": judgeRedirectUriExactMatch,
  "nonce optional": judgeNonceOptional,
  "unknown parameters": judgeUnknownParameters,
  "must succeed": judgeMustSucceed,
  "authorization by post": judgeAuthorizationByPost,
  "alternate happy flow": judgeAlternateHappyFlow,
  "response type missing": judgeResponseTypeMissing,
  "prompt none signed in": judgePromptNoneSignedIn,
  "prompt none signed out": judgePromptNoneSignedOut,
  "prompt login": judgePromptLogin,
  "max age": judgeMaxAge,
  "refresh tokens": judgeRefresh,
  logout: judgeLogout,
  "logout modules": judgeLogoutModules,
};

export function judgeIdentityScenario(scenario: IdentityScenario, context: JudgeContext): Finding[] {
  // The table pairs each name with its own scenario type; looked up by a name of the union, that pairing is lost.
  const judge = JUDGES[scenario.name] as ScenarioJudge<IdentityScenario>;
  return [
    ...statesEchoed(scenario),
    ...issReturnedIn(scenario),
    ...secretClaimsIn(scenario),
    ...judge(scenario, context),
  ];
}

/** no_secret_claims on each successful answer of the token endpoint (its id_token too) and userinfo the flow got. */
function secretClaimsIn({ exchanges }: IdentityScenario): Verdict[] {
  const answers = exchanges.filter(({ operationId }) =>
    ["exchangeToken", "getUserInfo", "getUserInfoByPost"].includes(operationId),
  );
  return answers.flatMap(({ operationId, label, exchange }) => {
    const documents = claimDocuments(exchange);
    if (documents.length === 0) return [];
    const problems = documents.map(({ where, json }) => secretClaims(where, json)).filter(Boolean);
    return [verdictOf("no_secret_claims", operationId, problems.join("; "), exchange, label)];
  });
}

/** state_echoed on each authorization that came back to the redirect_uri. */
function statesEchoed({ authorizations }: IdentityScenario): Verdict[] {
  return authorizations.flatMap(({ purpose, state, outcome }) => {
    const back = outcome.navigation.arrived?.searchParams;
    return back ? [verdictOf("state_echoed", "authorize", stateEchoed(state, back), outcome.exchange, purpose)] : [];
  });
}

/** authorization_response_iss on each authorization that came back to the redirect_uri. */
function issReturnedIn({ authorizations }: IdentityScenario): Verdict[] {
  return authorizations.flatMap(({ purpose, outcome, iss }) => {
    const back = outcome.navigation.arrived?.searchParams;
    const problem = back && issReturned(back, iss);
    return back ? [verdictOf("authorization_response_iss", "authorize", problem ?? "", outcome.exchange, purpose)] : [];
  });
}

/** token_expires_in on the first code's token response: missing warns (RECOMMENDED), fails under --strict. */
const expiresIn = ({ exchange, tokens }: Required<CodeExchange>, context: JudgeContext): Finding[] =>
  assumedVerdicts(
    context.options.strict,
    {
      check: "token_expires_in",
      operationId: "exchangeToken",
      caseLabel: "the token response of the first sign-in's code",
      problem: expiresInMissing(tokens),
      assumption: EXPIRES_IN_IS_RECOMMENDED,
    },
    exchange,
  );

const CREDENTIAL_FLAGS = {
  clientId: "--client-id (IDENTITY_CLIENT_ID)",
  clientSecret: "--client-secret (IDENTITY_CLIENT_SECRET)",
  redirectUri: "--redirect-uri (IDENTITY_REDIRECT_URI)",
};

/** The selected flow checks not in `judged`: none of them can run (fail closed). */
const cannotRunExcept = (context: JudgeContext, judged: string[], reason: string): Decision[] =>
  FLOW_CHECKS.filter((check) => context.options.checks.has(check) && !judged.includes(check)).map((check) =>
    cannotRunOf(check, reason),
  );

function judgeNoClient({ missing }: NoClientScenario, context: JudgeContext): Finding[] {
  return cannotRunExcept(context, [], `needs ${missing.map((k) => CREDENTIAL_FLAGS[k]).join(", ")}`);
}

/**
 * sign_in, and a fresh code refused (code_reuse). Could not run, not skipped: a run whose flow checks never ran must
 * not pass, whichever checks were selected (with sign_in excluded or not selected nothing else would fail it).
 */
function judgeSignIn({ first, fresh, judgedBefore }: SignInScenario, context: JudgeContext): Finding[] {
  const cause = signInFailure(first);
  const message = first.kind === "code" ? "" : `could not sign in to get an authorization code: ${cause}`;
  const signIn = verdictOf("sign_in", "authorize", message, first.exchange, "sign in");
  const judged = [
    ...judgedBefore,
    "sign_in",
    ...(first.navigation.arrived ? ["state_echoed", "authorization_response_iss"] : []),
  ];
  if (first.kind !== "code")
    return [signIn, ...cannotRunExcept(context, judged, `the sign-in did not complete: ${cause}`)];
  const entropy = verdictOf(
    "authorization_code_entropy",
    "authorize",
    codeEntropy(first.code),
    first.exchange,
    "sign in",
  );
  if (!fresh) return [signIn, entropy];
  const { exchange, tokens } = fresh;
  if (tokens) return [signIn, entropy, ...expiresIn({ exchange, tokens }, context)];
  const reason = `the provider refused a fresh code with its verifier: ${describe(exchange)}`;
  return [
    signIn,
    entropy,
    verdictOf("code_reuse", "exchangeToken", freshCodeRefused(exchange), exchange, "exchange a fresh code"),
    ...cannotRunExcept(context, [...judged, "authorization_code_entropy", "code_reuse"], reason),
  ];
}
