// The checks of the probes across operations (steps/methods.ts, scopes.ts): what each probe's answer says, as findings.
import type { JudgeContext } from "../context.js";
import type { Finding } from "../model/finding.js";
import type { ScopesScenario, UnsupportedMethodsScenario } from "../model/step-scenarios.js";
import { ALLOW_HEADER_CHECK, allowListsMethods } from "./allow-header.js";
import { methodRefused, scopesEnforced } from "./probe-checks.js";

/** unsupported_method on each probe (a success the contract leaves open is an observation), and allow_header. */
export function judgeUnsupportedMethods(
  { checks, probes }: UnsupportedMethodsScenario,
  context: JudgeContext,
): Finding[] {
  const findings: Finding[] = [];
  for (const { method, path, documented, probe } of probes) {
    const { operationId, exchange, label } = probe;
    const observe = (message: string) => findings.push({ about: "observation", operationId, message });
    if (checks.includes("unsupported_method"))
      findings.push(methodRefused(context.options.api, operationId, { method, path }, exchange, label, observe));
    const allow = allowListsMethods(operationId, { method, documented }, exchange, label);
    if (allow && checks.includes(ALLOW_HEADER_CHECK)) findings.push(allow);
  }
  return findings;
}

/** scope_enforcement on each request with the narrower key; skipped without one. */
export function judgeScopes({ narrowerKey, tries }: ScopesScenario, context: JudgeContext): Finding[] {
  if (!narrowerKey) {
    const reason = "needs a second, narrower key: --read-only-api-key (or CATALOG_READ_API_KEY)";
    return [{ about: "check", name: "scope_enforcement", decision: "skipped", reason }];
  }
  return tries.flatMap(({ scopes, missing, tried: { operationId, exchange, label } }) => {
    const verdict = scopesEnforced(context.options.api, { operationId, scopes, missing }, exchange, label);
    return verdict ? [verdict] : [];
  });
}
