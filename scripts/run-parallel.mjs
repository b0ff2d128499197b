// `node scripts/run-parallel.mjs [--live <npm script>] <npm script>...`: runs the npm scripts side by side, each one's
// output printed whole when it ends, so that their lines never mix, and fails when any failed after all have ended:
// `run-p --continue-on-error --aggregate-output`, through npm-run-all2's Node API. The --live script's output is
// printed as it comes instead: `npm test` shows Vitest's progress while the static checks run beside it, where it
// used to say nothing for minutes (a test that hangs shows in a CI log as it happens).
// run-p's command ends with process.exit() right after writing a script's output, which drops what a slow pipe has
// not taken yet beyond 64 KiB (mysticatea/npm-run-all#161): a CI log or `npm test | tee` lost the end of Vitest's
// output, its failures and summary. Here the process ends by itself, once its output is written.
// With --quiet, a script that succeeds prints one line naming the log file its output went to (.tmp/run-parallel/,
// git-ignored): a green `npm test` shows Vitest's summary, not pages of the checks' third-party notices (Redocly's
// "Woohoo!", prettier's, vue-tsc's). A script that fails prints its whole output as before, and the log keeps it too.
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import runAll from "npm-run-all2";

const args = process.argv.slice(2);
const quietAt = args.indexOf("--quiet");
const quiet = quietAt !== -1;
if (quiet) args.splice(quietAt, 1);
const liveAt = args.indexOf("--live");
const live = liveAt === -1 ? [] : args.splice(liveAt, 2).slice(1);
if (args.length + live.length === 0 || (liveAt !== -1 && live.length === 0)) {
  console.error("usage: node scripts/run-parallel.mjs [--quiet] [--live <npm script>] <npm script>...");
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

const logDir = join(".tmp", "run-parallel");

/** Runs one npm script with its output (stdout and stderr interleaved as they come) kept in a log file, printed only
 * when it fails. @param {string} script @returns {Promise<void>} */
const runQuietly = (script) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.platform === "win32" ? "npm.cmd" : "npm", ["run", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    /** @type {Buffer[]} */
    const chunks = [];
    /** @param {Buffer} chunk */
    const keep = (chunk) => chunks.push(chunk);
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      const output = Buffer.concat(chunks);
      const log = join(logDir, `${script.replaceAll(/[^\w.-]/g, "_")}.log`);
      mkdirSync(logDir, { recursive: true });
      writeFileSync(log, output);
      if (code === 0) {
        process.stdout.write(`ok ${script} (output in ${log})\n`);
        resolve();
        return;
      }
      process.stdout.write(output);
      const status = signal ? `was killed by ${signal}` : `exited with ${code}`;
      process.stdout.write(`\n${script} failed; its output above is also in ${log}\n`);
      reject(new Error(`"${script}" ${status}`));
    });
  });

/** @param {string[]} scripts */
const runAllQuietly = async (scripts) => {
  const failures = [];
  for (const result of await Promise.allSettled(scripts.map(runQuietly))) {
    if (result.status === "rejected")
      failures.push(result.reason instanceof Error ? result.reason.message : result.reason);
  }
  if (failures.length > 0) throw new Error(failures.join("; "));
};

for (const result of await Promise.allSettled([quiet ? runAllQuietly(args) : run(args, true), run(live, false)])) {
  if (result.status === "fulfilled") continue;
  console.error(`ERROR: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`);
  process.exitCode = 1;
}
