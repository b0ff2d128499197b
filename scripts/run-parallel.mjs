// `node scripts/run-parallel.mjs [--live <npm script>] <npm script>...`: runs the npm scripts side by side, each one's
// output printed whole when it ends, so that their lines never mix, and fails when any failed after all have ended:
// `run-p --continue-on-error --aggregate-output`, through npm-run-all2's Node API. The --live script's output is
// printed as it comes instead: `npm test` shows Vitest's progress while the static checks run beside it, where it
// used to say nothing for minutes (a test that hangs shows in a CI log as it happens).
// run-p's command ends with process.exit() right after writing a script's output, which drops what a slow pipe has
// not taken yet beyond 64 KiB (mysticatea/npm-run-all#161): a CI log or `npm test | tee` lost the end of Vitest's
// output, its failures and summary. Here the process ends by itself, once its output is written.
import runAll from "npm-run-all2";

const args = process.argv.slice(2);
const liveAt = args.indexOf("--live");
const live = liveAt === -1 ? [] : args.splice(liveAt, 2).slice(1);
if (args.length + live.length === 0 || (liveAt !== -1 && live.length === 0)) {
  console.error("usage: node scripts/run-parallel.mjs [--live <npm script>] <npm script>...");
  process.exit(2);
}

/** @param {string[]} scripts @param {boolean} aggregateOutput */
const run = (scripts, aggregateOutput) =>
  scripts.length === 0
    ? Promise.resolve()
    : runAll(scripts, {
        parallel: true,
        continueOnError: true,
        aggregateOutput,
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
      });

for (const result of await Promise.allSettled([run(args, true), run(live, false)])) {
  if (result.status === "fulfilled") continue;
  console.error(`ERROR: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`);
  process.exitCode = 1;
}
