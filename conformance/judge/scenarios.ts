// The checks of finished scenarios: each scenario goes to the checks that read it (judge/step-scenarios.ts,
// judge/identity-scenarios.ts), which return their findings as values.
import type { JudgeContext } from "../context.js";
import type { Finding } from "../model/finding.js";
import type { Scenario } from "../model/scenario.js";
import { judgeIdentityScenario } from "./identity-scenarios.js";
import { judgeStepScenario } from "./step-scenarios.js";

export function judgeScenario(scenario: Scenario, context: JudgeContext): Finding[] {
  return scenario.family === "identity"
    ? judgeIdentityScenario(scenario, context)
    : judgeStepScenario(scenario, context);
}
