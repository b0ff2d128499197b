// The checks that read the identity scenarios (model/identity-scenarios.ts): one function per scenario.
import type { RunContext } from "../context.js";
import type { Finding } from "../model/finding.js";
import type { IdentityScenario } from "../model/identity-scenarios.js";

export function judgeIdentityScenario(_scenario: IdentityScenario, _context: RunContext): Finding[] {
  return [];
}
