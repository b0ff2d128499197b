// The checks that read the step scenarios (model/step-scenarios.ts): one function per scenario, returning findings.
import type { JudgeContext } from "../context.js";
import type { Finding } from "../model/finding.js";
import type { StepScenario } from "../model/step-scenarios.js";
import { judgeScopes, judgeUnsupportedMethods } from "./probe-scenarios.js";
import { judgeNonceReplay, judgeUpdatesVisible } from "./resend-scenarios.js";
import { judgeIdempotency, judgeLifecycle, judgeListPages } from "./sequence-scenarios.js";

type ScenarioNamed = { [S in StepScenario as S["name"]]: S };

/** Every scenario's judge: the type leaves out none. */
const JUDGES: { [N in keyof ScenarioNamed]: (scenario: ScenarioNamed[N], context: JudgeContext) => Finding[] } = {
  lifecycle: judgeLifecycle,
  idempotency: judgeIdempotency,
  "list pages": judgeListPages,
  "unsupported methods": judgeUnsupportedMethods,
  scopes: judgeScopes,
  "nonce replay": judgeNonceReplay,
  "updates visible": judgeUpdatesVisible,
};

const judgeNamed = <N extends keyof ScenarioNamed>(name: N, scenario: ScenarioNamed[N], context: JudgeContext) =>
  JUDGES[name](scenario, context);

export function judgeStepScenario(scenario: StepScenario, context: JudgeContext): Finding[] {
  return judgeNamed(scenario.name, scenario, context);
}
