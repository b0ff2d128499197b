// The checks that read the step scenarios (model/step-scenarios.ts): one function per scenario, returning findings.
import type { RunContext } from "../context.js";
import type { Finding } from "../model/finding.js";
import type { StepScenario } from "../model/step-scenarios.js";

export function judgeStepScenario(_scenario: StepScenario, _context: RunContext): Finding[] {
  return [];
}
