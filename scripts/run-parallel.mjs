// `node scripts/run-parallel.mjs <npm script>...`: runs the npm scripts side by side, each one's output printed whole
// when it ends, and fails when any failed after all have ended: `run-p --continue-on-error --aggregate-output`, through
// npm-run-all2's Node API. Its command ends with process.exit() right after writing a script's output, which drops
// what a slow pipe has not taken yet beyond 64 KiB (mysticatea/npm-run-all#161): a CI log or `npm test | tee` lost
// the end of Vitest's output, its failures and summary. Here the process ends by itself, once its output is written.
import runAll from "npm-run-all2";

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error("usage: node scripts/run-parallel.mjs <npm script>...");
  process.exit(2);
}

runAll(scripts, {
  parallel: true,
  continueOnError: true,
  aggregateOutput: true,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
}).catch((/** @type {Error} */ error) => {
  console.error(`ERROR: ${error.message}`);
  process.exitCode = 1;
});
