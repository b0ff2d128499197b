// @ts-check
// The conformance runner's stages go one way (docs/guide/architecture.md): plan, then send, then judge, then report.
// A stage imports the shared types (conformance/model/), the contract's words and the stages before it, never one
// after it, nor the runner that wires them; model/ imports no stage. The report reads what every source of exchanges
// shares; no command imports conformance/conform-command.ts, which dispatches to them, and the live run's command
// (conformance/cli.ts) imports no other. test/repository/stages.test.ts breaks each rule on purpose.

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
  // The commands share their steps through conformance/cli-options.ts and conformance/finish-run.ts;
  // conformance/conform-command.ts dispatches to the live run (conformance/cli.ts) and to the recorded traffic's, so
  // none of them imports it, nor the live run's command.
  "conformance/passive": ["cli.js", "conform-command.js", "proxy", ...RUNNER],
  "conformance/overlay": ["cli.js", "conform-command.js", "passive", "proxy", ...RUNNER],
  "conformance/proxy": ["cli.js", "conform-command.js", ...RUNNER],
};

/**
 * What the live run's command (conformance/cli.ts, a file of conformance/ itself) may not import: the other commands
 * and their dispatch. `contracts conform --har` or `--from-json` reaches passive/cli.ts through the dispatch alone.
 */
export const LIVE_COMMAND = {
  file: "conformance/cli.ts",
  refused: ["./conform-command.js", "./passive/*", "./proxy/*", "./overlay/*"],
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
export const STAGE_RULES = [
  ...Object.entries(LATER_STAGES).map(([folder, later]) => ({ files: [`${folder}/**`], group: later.map(importOf) })),
  { files: [LIVE_COMMAND.file], group: LIVE_COMMAND.refused },
].map(({ files, group }) => ({
  files,
  rules: {
    "no-restricted-imports": ["error", { patterns: [{ group, message: STAGE_MESSAGE }] }],
  },
}));
