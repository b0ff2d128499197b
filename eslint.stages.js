// @ts-check
// The conformance runner's stages go one way (docs/guide/architecture.md): plan, then send, then judge, then report.
// A stage imports the shared types (conformance/model/), the contract's words and the stages before it, never one
// after it, nor the runner that wires them; model/ imports no stage. test/repository/stages.test.ts breaks each rule
// on purpose.

/** Per stage, the folders it may not import. */
export const LATER_STAGES = {
  "conformance/model": ["plan", "send", "judge", "report", "steps", "identity", "passive", "proxy"],
  "conformance/plan": ["send", "judge", "report", "steps", "identity", "passive", "proxy"],
  "conformance/send": ["judge", "report", "steps", "identity", "passive", "proxy"],
  "conformance/judge": ["report", "passive", "proxy"],
};

export const STAGE_MESSAGE = "The runner's stages go one way: plan, send, judge, report (docs/guide/architecture.md).";

/**
 * A `no-restricted-imports` rule per stage (type imports too: a type from a later stage is a cycle all the same).
 * @type {import("eslint").Linter.Config[]}
 */
export const STAGE_RULES = Object.entries(LATER_STAGES).map(([folder, later]) => ({
  files: [`${folder}/**`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            group: [...later.map((stage) => `../${stage}/*`), "../runner.js", "../execute.js", "../item-parts.js"],
            message: STAGE_MESSAGE,
          },
        ],
      },
    ],
  },
}));
