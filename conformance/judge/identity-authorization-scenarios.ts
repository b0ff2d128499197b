// The checks of the authorization endpoint's scenarios (pkce_s256_only on a plain challenge, redirect_uri_mismatch,
// redirect_uri_exact_match, nonce_optional, unknown_parameters_ignored, the requests that must succeed,
// authorization_by_post, response_type_missing, prompt_none, prompt_login, max_age): each
// reads what its flow saw and returns the verdicts of the rules in identity-authorization.ts.
import type { JudgeContext } from "../context.js";
import { resolveAt } from "../contract/lookup.js";
import type { Finding } from "../model/finding.js";
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
  UnknownParametersScenario,
} from "../model/identity-scenarios.js";
import type { Exchange } from "../model/exchange.js";
import {
  authorizationByPost,
  maxAge,
  mustSucceed,
  nearMissFollowed,
  nonceOptional,
  plainPkceAccepted,
  POST_NOT_IN_CONTRACT,
  promptLogin,
  promptNoneSignedIn,
  promptNoneSignedOut,
  REAUTHENTICATION_PROMPT_IS_A_SHOULD,
  redirectUriMismatch,
  responseTypeMissing,
  unknownParameterRefused,
} from "./identity-authorization.js";
import { type Reauthentication } from "../model/identity-facts.js";
import { assumedProblem } from "./identity-words.js";
import { cannotRunOf, verdictOf, withPages } from "./verdict.js";

/**
 * The contract's x-assumption that only S256 is allowed (RFC 7636 still allows plain; RFC 9700 §2.1.1 prefers S256).
 */
export function s256OnlyAssumption(context: JudgeContext): string | undefined {
  const parameter = context.model("authorize").parameters.find((p) => p.name === "code_challenge_method");
  const schema = parameter ? resolveAt("identity", `${parameter.pointer}/schema`) : {};
  const assumption = (schema as Record<string, unknown>)["x-assumption"];
  return typeof assumption === "string" ? assumption : undefined;
}

/** A code for code_challenge_method=plain breaks the contract's S256-only assumption: a warning unless --strict. */
export function judgePlainPkce({ attempt }: PlainPkceScenario, context: JudgeContext): Finding[] {
  const caseLabel = "authorize with code_challenge_method=plain";
  const { message, warnings } = assumedProblem(context.options.strict, {
    check: "pkce_s256_only",
    operationId: "authorize",
    caseLabel,
    problem: plainPkceAccepted(attempt),
    assumption: s256OnlyAssumption(context),
  });
  return [...warnings, verdictOf("pkce_s256_only", "authorize", message, attempt.exchange, caseLabel)];
}

export function judgeRedirectUriMismatch(scenario: RedirectUriMismatchScenario): Finding[] {
  const { toUnregistered, unregistered, exchangedElsewhere } = scenario;
  return [
    verdictOf(
      "redirect_uri_mismatch",
      "exchangeToken",
      redirectUriMismatch(toUnregistered, unregistered, exchangedElsewhere),
      exchangedElsewhere ?? toUnregistered.exchange,
      "redirect_uri that must be refused",
    ),
  ];
}

/** Every near miss refused; the verdict shows the first one followed, or the last one sent. */
export function judgeRedirectUriExactMatch({ attempts }: RedirectUriExactMatchScenario): Finding[] {
  const problems: string[] = [];
  let failed: Exchange | undefined;
  for (const { nearMiss, attempt } of attempts) {
    const problem = nearMissFollowed(attempt, nearMiss);
    if (problem) {
      problems.push(problem);
      failed ??= attempt.exchange;
    }
  }
  const verdict = verdictOf(
    "redirect_uri_exact_match",
    "authorize",
    problems.join("; "),
    failed ?? attempts.at(-1)?.attempt.exchange,
    "authorize with near misses of the registered redirect_uri",
  );
  return [
    withPages(
      verdict,
      attempts.map(({ attempt }) => attempt.navigation),
    ),
  ];
}

export function judgeNonceOptional({ attempt, exchanged, idTokenNonce }: NonceOptionalScenario): Finding[] {
  const problem = nonceOptional(attempt, exchanged, idTokenNonce);
  const exchange = exchanged?.exchange ?? attempt.exchange;
  return [verdictOf("nonce_optional", "authorize", problem, exchange, "authorize without nonce")];
}

export function judgeUnknownParameters({ attempt }: UnknownParametersScenario): Finding[] {
  return [
    verdictOf(
      "unknown_parameters_ignored",
      "authorize",
      unknownParameterRefused(attempt),
      attempt.exchange,
      "authorize with an unknown parameter",
    ),
  ];
}

export function judgeMustSucceed(scenario: MustSucceedScenario): Finding[] {
  const { check, what, section, skipped, attempt, exchanged, requiredClaim, sameSession } = scenario;
  if (skipped || !attempt) return [{ about: "check", name: check, decision: "skipped", reason: skipped ?? "not sent" }];
  const problem = mustSucceed(what, section, attempt, exchanged, requiredClaim, sameSession);
  return [verdictOf(check, "authorize", problem, exchanged?.exchange ?? attempt.exchange, what)];
}

/**
 * A POST taken and then broken fails; a POST refused outright breaks Core's MUST but not the contract, which describes
 * GET only: a warning unless --strict, with the page kept. Fail closed: a request that got no page at all says nothing.
 */
export function judgeAuthorizationByPost(scenario: AuthorizationByPostScenario, context: JudgeContext): Finding[] {
  const check = "authorization_by_post";
  const { skipped, attempt, exchanged } = scenario;
  if (skipped || !attempt) return [{ about: "check", name: check, decision: "skipped", reason: skipped ?? "not sent" }];
  if (attempt.kind === "failed" && !attempt.navigation.lastPage)
    return [cannotRunOf(check, `the authorization request by POST got no page: ${attempt.failure}`)];
  const caseLabel = "authorize by POST (a form)";
  const { problem, refusal } = authorizationByPost(attempt, exchanged);
  const { message, warnings } = assumedProblem(context.options.strict, {
    check,
    operationId: "authorize",
    caseLabel,
    problem: refusal,
    assumption: POST_NOT_IN_CONTRACT,
  });
  const shown = exchanged?.exchange ?? attempt.exchange;
  const verdict = verdictOf(check, "authorize", [problem, message].filter(Boolean).join("; "), shown, caseLabel);
  return [...warnings, withPages(verdict, [attempt.navigation])];
}

/** Fail closed: a request that got no page at all says nothing about how a missing response_type is refused. */
export function judgeResponseTypeMissing({ attempt }: ResponseTypeMissingScenario): Finding[] {
  const check = "response_type_missing";
  if (attempt.kind === "failed" && !attempt.navigation.lastPage)
    return [cannotRunOf(check, `the authorization request without response_type got no page: ${attempt.failure}`)];
  const problem = responseTypeMissing(attempt);
  const verdict = verdictOf(check, "authorize", problem, attempt.exchange, "authorize without response_type");
  return [withPages(verdict, [attempt.navigation])];
}

export function judgePromptNoneSignedIn(scenario: PromptNoneSignedInScenario): Finding[] {
  const { attempt, hinted, exchanged, sameSession } = scenario;
  const problem = promptNoneSignedIn(attempt, hinted, exchanged, sameSession);
  const exchange = problem && exchanged ? exchanged.exchange : attempt.exchange;
  return [verdictOf("prompt_none", "authorize", problem, exchange, "prompt=none while signed in")];
}

export function judgePromptNoneSignedOut({ attempt }: PromptNoneSignedOutScenario): Finding[] {
  const problem = promptNoneSignedOut(attempt);
  return [verdictOf("prompt_none", "authorize", problem, attempt.exchange, "prompt=none without a session")];
}

/** The exchange a re-authentication's verdict shows: the code's exchange, or the navigation. */
const shownExchange = (run: Reauthentication) => run.exchanged?.exchange ?? run.attempt.exchange;

/** A code without the credentials asked again breaks only Core's SHOULD: a warning unless --strict. */
export function judgePromptLogin({ run, firstSignIn }: PromptLoginScenario, context: JudgeContext): Finding[] {
  const { problem, credentialsNotAsked } = promptLogin(run, firstSignIn);
  const caseLabel = "prompt=login";
  const { message, warnings } = assumedProblem(context.options.strict, {
    check: "prompt_login",
    operationId: "authorize",
    caseLabel,
    problem: credentialsNotAsked,
    assumption: REAUTHENTICATION_PROMPT_IS_A_SHOULD,
  });
  const problems = [problem, message].filter(Boolean).join("; ");
  return [...warnings, verdictOf("prompt_login", "authorize", problems, shownExchange(run), caseLabel)];
}

export function judgeMaxAge({ run }: MaxAgeScenario): Finding[] {
  return [verdictOf("max_age", "authorize", maxAge(run), shownExchange(run), "max_age=1")];
}
