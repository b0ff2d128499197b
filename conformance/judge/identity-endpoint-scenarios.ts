// The checks of the discovery, JWKS, userinfo (the reordered scopes' of alternate_happy_flow too) and logout scenarios:
// each reads what its flow saw and returns the findings of the rules in identity-discovery.ts, identity-userinfo.ts and
// identity-logout.ts; and where the run sent each identity operation, as observations of the deployment.
import type { JudgeContext } from "../context.js";
import { propertiesWith } from "../contract/lookup.js";
import type { Decision, Finding } from "../model/finding.js";
import type {
  AlternateHappyFlowScenario,
  DiscoveryScenario,
  EndpointsScenario,
  JwksScenario,
  LogoutScenario,
  UserinfoByScopeScenario,
  UserinfoMethodsScenario,
} from "../model/identity-scenarios.js";
import type { Exchange } from "../model/exchange.js";
import { s256OnlyAssumption } from "./identity-authorization-scenarios.js";
import { DISCOVERY_CHECKS, LOGOUT_CHECKS } from "../model/identity-check-groups.js";
import {
  discoveryAlgorithms,
  discoveryFields,
  discoveryPkceMethods,
  endpointObservations,
  type EndpointObservation,
  jwksShape,
  jwksUniqueKids,
  noDiscoveryDocument,
  noJwksKeys,
} from "./identity-discovery.js";
import {
  grantTypesAndClaims,
  plainHttpEndpoints,
  RECOMMENDED_ONLY,
  scopesNotListed,
} from "./identity-discovery-members.js";
import { openRedirectFollowed, postLogoutRedirect, sessionNotEnded } from "./identity-logout.js";
import { readingForScope, subjectDiffers, userinfoWay } from "./identity-userinfo.js";
import { assumedProblem, describeAuthorization } from "./identity-words.js";
import { jsonObject } from "../identity/json.js";
import { cannotRunOf, verdictOf, withPages } from "./verdict.js";
import { mustSucceed } from "./identity-authorization.js";
import { grantedScope } from "./identity-claims.js";
import { idTokenByScope } from "./identity-token-scenarios.js";
import type { CheckName } from "../model/check-registry.js";

export function judgeDiscovery({ exchange, document }: DiscoveryScenario, context: JudgeContext): Finding[] {
  const caseLabel = "discovery document";
  const verdict = (check: CheckName, message: string) =>
    verdictOf(check, "getOpenIdConfiguration", message, exchange, caseLabel);
  if (!document) return DISCOVERY_CHECKS.map((check) => verdict(check, noDiscoveryDocument(exchange)));
  const pkce = discoveryPkceMethods(document.code_challenge_methods_supported);
  const { message, warnings } = pkce.assumed
    ? assumedProblem(context.options.strict, {
        check: "pkce_s256_only",
        operationId: "getOpenIdConfiguration",
        caseLabel,
        problem: pkce.problem,
        assumption: s256OnlyAssumption(context),
      })
    : { message: pkce.problem, warnings: [] };
  const recommended = (check: CheckName, problem: string) =>
    assumedProblem(context.options.strict, {
      check,
      operationId: "getOpenIdConfiguration",
      caseLabel,
      problem,
      assumption: RECOMMENDED_ONLY,
    });
  const scopes = recommended("discovery_rs256_and_openid", scopesNotListed(document));
  const grantTypes = grantTypesAndClaims(document);
  const claims = recommended("discovery_grant_types_and_claims", grantTypes.unlisted);
  const both = (...messages: string[]) => messages.filter(Boolean).join("; ");
  return [
    verdict("discovery_fields_and_issuer", discoveryFields(document, context.options.baseUrl)),
    ...scopes.warnings,
    verdict("discovery_rs256_and_openid", both(discoveryAlgorithms(document), scopes.message)),
    ...warnings,
    verdict("pkce_s256_only", message),
    verdict("discovery_https_endpoints", plainHttpEndpoints(document)),
    ...claims.warnings,
    verdict("discovery_grant_types_and_claims", both(grantTypes.problem, claims.message)),
  ];
}

/** Where the identity operations went: facts about the deployment, which the report shows and no check fails on. */
export function judgeEndpoints({ exchange, locations }: EndpointsScenario): Finding[] {
  if (exchange.interrupted) return [];
  const observations: EndpointObservation[] = jsonObject(exchange.response?.json)
    ? endpointObservations(locations)
    : [
        {
          message: `${noDiscoveryDocument(exchange)}: every identity operation went to the contract's path under the base address`,
        },
      ];
  return observations.map(({ message, known, advertised }) => ({
    about: "observation",
    operationId: "getOpenIdConfiguration",
    message,
    deployment: true,
    ...(known ? { known } : {}),
    ...(advertised ? { advertised } : {}),
  }));
}

export function judgeJwks({ exchange, keys }: JwksScenario): Finding[] {
  const verdict = (check: CheckName, message: string) => verdictOf(check, "getJwks", message, exchange, "JWKS");
  if (!keys) return [verdict("jwks_shape", noJwksKeys(exchange))];
  return [verdict("jwks_shape", jwksShape(keys)), verdict("jwks_unique_kids", jwksUniqueKids(keys))];
}

/**
 * granted_scope_claims on the first sign-in's token; userinfo_by_scope on it and on a token of scope openid, each by
 * the scope its token response granted; id_token_by_scope on the id_token of scope openid.
 */
export function judgeUserinfoByScope({ first, idTokenSub, openidOnly }: UserinfoByScopeScenario): Finding[] {
  const granted = grantedScope(first.tokens, first.requested);
  const reading = readingForScope(first.userinfo, granted);
  const problems = [...reading.problems, subjectDiffers(reading.claims, idTokenSub)].filter(Boolean);
  const scopeClaims = verdictOf(
    "granted_scope_claims",
    "getUserInfo",
    reading.missingScopes.join("; "),
    first.userinfo,
    `userinfo for ${granted.described}`,
  );
  const findings: Finding[] = [scopeClaims];
  if (openidOnly) {
    problems.push(
      ...readingForScope(openidOnly.userinfo, grantedScope(openidOnly.tokens, openidOnly.requested)).problems,
    );
    const caseLabel = "the id_token of a code for scope openid";
    findings.push(idTokenByScope(openidOnly.issued, openidOnly.tokens, openidOnly.requested, caseLabel));
  }
  const last = openidOnly?.userinfo ?? first.userinfo;
  const byScope = verdictOf("userinfo_by_scope", "getUserInfo", problems.join("; "), last, "userinfo by scope");
  return [...findings, byScope];
}

/**
 * alternate_happy_flow: the reordered request ends in a code and tokens as any request must (mustSucceed). What its
 * tokens carry is judged by the checks that judge the first sign-in's, with their rules: its userinfo by
 * userinfo_by_scope and granted_scope_claims, its id_token by id_token_by_scope, each by the scope it was granted.
 */
export function judgeAlternateHappyFlow({ scope, attempt, exchanged, read }: AlternateHappyFlowScenario): Finding[] {
  const what = `an authorization request with scope "${scope}" and the parameters in the reverse order`;
  const section = "RFC 6749 §3.3: the order of the scope values does not matter";
  const problem = mustSucceed(what, section, attempt, exchanged, undefined);
  const flow = verdictOf("alternate_happy_flow", "authorize", problem, exchanged?.exchange ?? attempt.exchange, what);
  if (!read) return [flow];
  const granted = grantedScope(read.tokens, read.requested);
  const reading = readingForScope(read.userinfo, granted);
  const label = `userinfo for ${granted.described}, the scopes reordered`;
  return [
    flow,
    verdictOf("userinfo_by_scope", "getUserInfo", reading.problems.join("; "), read.userinfo, label),
    verdictOf("granted_scope_claims", "getUserInfo", reading.missingScopes.join("; "), read.userinfo, label),
    idTokenByScope(read.issued, read.tokens, read.requested, "the id_token of a code for the scopes reordered"),
  ];
}

/** The contract's x-assumption on the token in a POST's form body, which RFC 6750 §2.2 leaves optional ("MAY"). */
function bodyTokenAssumption(context: JudgeContext): string | undefined {
  const body = context.model("getUserInfoByPost").body;
  return body ? propertiesWith("identity", body.pointer, "x-assumption").get("access_token") : undefined;
}

/**
 * Every way answers with the same claims; refusing the optional one (the token in a POST's form body) breaks only
 * the contract's assumption. The verdict is on the first way that failed, shown with the last.
 */
export function judgeUserinfoMethods({ ways }: UserinfoMethodsScenario, context: JudgeContext): Finding[] {
  const findings: Finding[] = [];
  const problems: string[] = [];
  let subject: unknown;
  let last: Exchange | undefined;
  let failedOn: (typeof ways)[number]["way"]["operationId"] | undefined;
  for (const { way, exchange } of ways) {
    const found = userinfoWay(way, exchange, subject);
    const { message, warnings } = found.assumed
      ? assumedProblem(context.options.strict, {
          check: "userinfo_methods",
          operationId: way.operationId,
          caseLabel: `userinfo by ${way.what}`,
          problem: found.problem,
          assumption: bodyTokenAssumption(context),
        })
      : { message: found.problem, warnings: [] };
    findings.push(...warnings);
    if (!found.problem) subject ??= jsonObject(exchange.response?.json)?.sub;
    if (message) {
      problems.push(message);
      last = exchange;
      failedOn ??= way.operationId;
    } else last ??= exchange;
  }
  const operationId = failedOn ?? "getUserInfoByPost";
  return [
    ...findings,
    verdictOf("userinfo_methods", operationId, problems.join("; "), last, "userinfo by GET and POST"),
  ];
}

/** logout_open_redirect: no target not registered was redirected to; the verdict shows the first that was. */
function openRedirects(attempts: NonNullable<LogoutScenario["openRedirects"]>): Finding {
  const problems: string[] = [];
  let failed: Exchange | undefined;
  for (const { navigation, target, exchange } of attempts) {
    const problem = openRedirectFollowed(navigation, target);
    if (problem) {
      problems.push(problem);
      failed ??= exchange;
    }
  }
  const verdict = verdictOf(
    "logout_open_redirect",
    "logout",
    problems.join("; "),
    failed ?? attempts.at(-1)?.exchange,
    "logout with post_logout_redirect_uri values not registered",
  );
  return withPages(
    verdict,
    attempts.map(({ navigation }) => navigation),
  );
}

export function judgeLogout(scenario: LogoutScenario, context: JudgeContext): Finding[] {
  const { checks } = context.options;
  const wanted = LOGOUT_CHECKS.filter((check) => checks.has(check));
  if (!scenario.registered) {
    const reason = "needs --post-logout-redirect-uri (registered for the client)";
    return wanted.map((check): Decision => ({ about: "check", name: check, decision: "skipped", reason }));
  }
  // Fail closed: the logout checks apply, and could not run.
  if (!scenario.signedIn)
    return wanted.map((check) => cannotRunOf(check, "could not sign in again to get an id_token to sign out with"));
  const findings: Finding[] = scenario.openRedirects ? [openRedirects(scenario.openRedirects)] : [];
  const { postRedirect, afterLogout } = scenario;
  if (postRedirect)
    findings.push(
      verdictOf(
        "logout_post_redirect",
        "logout",
        postLogoutRedirect(postRedirect.navigation, postRedirect.state),
        postRedirect.exchange,
        "logout with the registered post_logout_redirect_uri",
      ),
    );
  if (!checks.has("logout_ends_session")) return findings;
  const { beforeLogout } = scenario;
  if (!postRedirect?.navigation.arrived) {
    const reason = "the logout did not complete, see logout_post_redirect";
    findings.push({ about: "check", name: "logout_ends_session", decision: "skipped", reason });
  } else if (beforeLogout && beforeLogout.kind !== "code") {
    // Nothing to prove: "no code after the logout" holds as well for a provider that never kept a session.
    const reason = `no session to end: prompt=none got no code before the logout (${describeAuthorization(beforeLogout)})`;
    findings.push({ about: "check", name: "logout_ends_session", decision: "skipped", reason });
  } else if (afterLogout)
    findings.push(
      verdictOf(
        "logout_ends_session",
        "logout",
        sessionNotEnded(afterLogout),
        afterLogout.exchange,
        "prompt=none after logout",
      ),
    );
  return findings;
}
