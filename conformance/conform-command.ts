// `contracts conform`: the command's dispatch, the one place that knows both ways of running it. A live run
// (cli.ts) or a run over recorded traffic (--har, --from-json: passive/cli.ts), each inside --overlay when given;
// `merge` of shard reports; --config for every API a deployment file names; --help and --list-checks. The two runs
// share their options (cli-options.ts) and their end (finish-run.ts), and neither imports the other.
import { UsageError } from "../lib/cli.js";
import { API_NAMES, type ApiName } from "../lib/contract/index.js";
import { runLiveCommand } from "./cli.js";
import { parseConformArgs } from "./cli-options.js";
import { CONFORM_USAGE } from "./cli-usage.js";
import { apiRun, readDeploymentConfig } from "./config.js";
import { anyApplies, selectChecks } from "./judge/checks.js";
import { CHECK_LIST } from "./model/check-registry.js";
import { withOverlay } from "./overlay/outcome.js";
import { runPassiveCommand } from "./passive/cli.js";
import { type ConformConsole, PROCESS_CONSOLE } from "./report/console.js";
import { runMergeCommand } from "./report/merge.js";

export async function runConformCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: ConformConsole = PROCESS_CONSOLE,
): Promise<number> {
  if (argv[0] === "merge") return runMergeCommand(argv.slice(1), io);
  const configAt = argv.indexOf("--config");
  if (configAt >= 0)
    return runDeployment(argv[configAt + 1], [...argv.slice(0, configAt), ...argv.slice(configAt + 2)], env, io);
  const { values, positionals } = parseConformArgs(argv);
  if (values.help) {
    io.out(CONFORM_USAGE);
    return 0;
  }
  if (values["list-checks"]) {
    for (const check of CHECK_LIST)
      io.out(
        `${check.name}${check.apis ? ` (${check.apis.join(", ")})` : ""}${check.writes ? " [--allow-writes]" : ""}\n    ${check.catches}\n    enforces: ${check.enforces}\n`,
      );
    return 0;
  }
  return withOverlay(values.overlay, positionals[0], async () =>
    values.har !== undefined || values["from-json"] !== undefined
      ? runPassiveCommand(values, positionals, env, io)
      : runLiveCommand(values, positionals, env, io),
  );
}

/** `--config <file>`: every API the file names, in turn; the exit code is the worst (2 usage, 1 failures, 0). */
async function runDeployment(
  file: string | undefined,
  shared: string[],
  env: NodeJS.ProcessEnv,
  io: ConformConsole,
): Promise<number> {
  if (!file || file.startsWith("--")) throw new UsageError("--config takes a file");
  if (shared.some((arg) => !arg.startsWith("-") && (API_NAMES as readonly string[]).includes(arg)))
    throw new UsageError("with --config, the APIs come from the file; name none on the command line");
  const config = await readDeploymentConfig(file);
  const runs = Object.entries(config.apis).map(([api, entry]) => ({
    api: api as ApiName,
    ...apiRun(api as ApiName, entry, shared, env),
  }));
  // --check shared by every API: an API to which none of them applies is left out, not run for nothing.
  const applicable = runs.filter((run) => {
    const { values } = parseConformArgs(run.argv);
    return anyApplies(selectChecks(values.check, values["exclude-check"]), run.api);
  });
  if (applicable.length === 0)
    throw new UsageError(
      `none of the selected checks applies to an API of ${file}; \`contracts conform --list-checks\` shows which do`,
    );
  for (const run of runs.filter((each) => !applicable.includes(each)))
    io.err(`contracts conform --config ${file}: ${run.api} left out, none of the selected checks applies to it\n`);
  let worst = 0;
  for (const run of applicable) {
    io.err(`contracts conform --config ${file}: ${run.api}\n`);
    const code = await runConformCommand(run.argv, run.env, io);
    if (code === 130) return 130;
    worst = Math.max(worst, code);
  }
  return worst;
}
