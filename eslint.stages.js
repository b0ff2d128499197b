// @ts-check
// The conformance runner's stages go one way (docs/guide/architecture.md): plan, then send, then judge, then report.
// A stage imports the shared types (conformance/model/), the contract's words and the stages before it, never one
// after it, nor the runner that wires them; model/ imports no stage. The report reads what every source of exchanges
// shares, and no command imports conformance/cli.ts, which wires them. test/repository/stages.test.ts breaks each rule
// on purpose.

/** What wires the stages together: no stage imports it. */
const RUNNER = ["runner.js", "execute.js"];

/**
 * Per stage, the folders (and files of conformance/) it may not import. The scenarios, the steps across operations and
 * the OpenID Connect flows, send: they import neither the judge nor the report, and ask the judge only what
 * model/scenario.ts's ScenarioJudge offers.
 */
export const LATER_STAGES = {
  "conformance/model": [
    "plan",
    "send",
    "steps",
    "identity",
    "judge",
    "report",
    "passive",
    "proxy",
    "item-parts.js",
    ...RUNNER,
  ],
  "conformance/plan": ["send", "steps", "identity", "judge", "report", "passive", "proxy", "item-parts.js", ...RUNNER],
  "conformance/send": ["steps", "identity", "judge", "report", "passive", "proxy", "item-parts.js", ...RUNNER],
  "conformance/steps": ["judge", "report", "passive", "proxy", ...RUNNER],
  "conformance/identity": ["judge", "report", "passive", "proxy", ...RUNNER],
  "conformance/judge": ["report", "passive", "proxy", "item-parts.js", ...RUNNER],
  // The report renders one shape of exchanges and events (conformance/model/recorded-traffic.ts), whatever sent or
  // recorded them: an active run, a HAR file, a JSON report, the proxy.
  "conformance/report": ["passive", "proxy", ...RUNNER],
  // The commands share their steps through conformance/cli-options.ts and conformance/finish-run.ts; conformance/cli.ts
  // wires them, so none of them imports it back.
  "conformance/passive": ["cli.js", "proxy", ...RUNNER],
  "conformance/overlay": ["cli.js", "passive", "proxy", ...RUNNER],
  "conformance/proxy": ["cli.js", ...RUNNER],
};

/**
 * The import a rule refuses: a folder's modules, or a file of conformance/.
 * @param {string} later
 */
export const importOf = (later) => (later.endsWith(".js") ? `../${later}` : `../${later}/*`);

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
            group: later.map(importOf),
            message: STAGE_MESSAGE,
          },
        ],
      },
    ],
  },
}));
