// `contracts mock` started the three ways frontend teams start it (`npm start`, `npx contracts mock`, `node
// dist/bin/contracts.js mock`), then stopped the ways a terminal, a supervisor or `docker stop` stop things: a
// signal to the top process only, or SIGKILL of the top process or of the CLI itself. Each time, within 3 s no
// process of the tree is alive and no port answers. npm test runs a sample in which every launcher and every stop
// appear (test/mock/lifecycle.test.ts); the release proofs run every other pair (test/release/lifecycle.test.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExpectStatic } from "vitest";
import { afterEachFile } from "../../support/file-end.js";
import { portAnswers, testPort } from "../../support/ports.js";
import { commandLine, contractsBin, isAlive, processTree, repoRoot } from "../../support/processes.js";

const STOP_WITHIN_MS = 3000;
const START_WITHIN_MS = 60_000;
const LAUNCHERS = [
  { name: "npm start", command: "npm", args: (basePort: number) => ["start", "--", "--base-port", String(basePort)] },
  {
    name: "npx contracts mock",
    command: "npx",
    args: (basePort: number) => ["contracts", "mock", "--base-port", String(basePort)],
  },
  {
    name: "node dist/bin/contracts.js mock",
    command: process.execPath,
    args: (basePort: number) => [contractsBin, "mock", "--base-port", String(basePort)],
  },
] as const;
type Stop = { signal: NodeJS.Signals; target: "top process" | "CLI" | "process group" };
const STOPS: Stop[] = [
  { signal: "SIGINT", target: "process group" }, // Ctrl-C in a terminal
  { signal: "SIGTERM", target: "top process" },
  { signal: "SIGINT", target: "top process" },
  { signal: "SIGHUP", target: "top process" },
  { signal: "SIGKILL", target: "top process" },
  { signal: "SIGKILL", target: "CLI" },
];

// For `node dist/bin/contracts.js` the top process is the CLI: SIGKILL of either is the same case. SIGINT to `npx`
// alone reaches the CLI because the repository's .npmrc makes npm run scripts and bins with bash, which execs the
// command (dash, Debian's /bin/sh, would stay between them and hold the SIGINT back until its child exits).
const covered = (launcher: (typeof LAUNCHERS)[number], stop: Stop) =>
  !(launcher.command === process.execPath && stop.target === "CLI");
/** Every launcher and every stop once; `npm start`, what most teams run, with the stops that reach it differently: the
 * terminal's Ctrl-C, a signal npm itself must pass on (SIGHUP), and npm killed under the CLI. */
const SAMPLE = new Set([
  "npm start: SIGINT to the process group",
  "npm start: SIGHUP to the top process",
  "npm start: SIGKILL to the top process",
  "npx contracts mock: SIGINT to the top process",
  "npx contracts mock: SIGKILL to the CLI",
  "node dist/bin/contracts.js mock: SIGTERM to the top process",
]);
export const STOP_CASES = LAUNCHERS.flatMap((launcher) =>
  STOPS.filter((stop) => covered(launcher, stop)).map((stop) => ({ launcher, stop })),
).map((c, i) => {
  const label = `${c.launcher.name}: ${c.stop.signal} to the ${c.stop.target}`;
  return { ...c, basePort: testPort(4600 + 10 * i), label, inSample: SAMPLE.has(label) };
});
export type StopCase = (typeof STOP_CASES)[number];

// npx installs the repository into its cache keyed by the checkout's path; a fresh cache per run keeps an entry
// left by an older checkout at the same path (another package name, another build) out of the test. Installing it
// there runs the package's `prepare` (a full tsc build) unless scripts are ignored: that build would rewrite dist/
// while the other test files run it, and has nothing to do with how the mocks stop.
// (Made when a file first needs it and removed when the file ends: a worker runs file after file with this module
// loaded once.)
let npmCache: string | undefined;
function launchEnv(): NodeJS.ProcessEnv {
  npmCache ??= mkdtempSync(join(tmpdir(), "lifecycle-npm-cache-"));
  return {
    ...process.env,
    npm_config_update_notifier: "false",
    npm_config_cache: npmCache,
    npm_config_ignore_scripts: "true",
  };
}
afterEachFile(() => {
  if (npmCache) rmSync(npmCache, { recursive: true, force: true });
  npmCache = undefined;
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const begin = performance.now();
  while (!(await condition())) {
    if (performance.now() - begin > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - begin;
}

/** Starts the mocks the case's way, stops them the case's way, and expects nothing left within 3 s. */
export async function expectNothingLeftBehind(
  { launcher, stop, basePort }: StopCase,
  expect: ExpectStatic,
): Promise<void> {
  const ports = [0, 1, 2, 3].map((offset) => basePort + offset);
  // In its own process group, as a terminal starts a command, so that "process group" reaches this tree only.
  const top = spawn(launcher.command, launcher.args(basePort), { cwd: repoRoot, detached: true, env: launchEnv() });
  let tree: number[] = [top.pid!];
  try {
    let output = "";
    // The CLI prints its table of URLs once every mock listens; the last row is pay's.
    const lastRow = new RegExp(`^pay\\s+http://127\\.0\\.0\\.1:${ports[3]}\\s`, "m");
    let timer: NodeJS.Timeout | undefined;
    const listening = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`not within ${START_WITHIN_MS} ms`)), START_WITHIN_MS);
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (lastRow.test(output)) resolve();
      };
      top.stdout.on("data", collect);
      top.stderr.on("data", collect);
      top.once("exit", (code, signal) => reject(new Error(`exited (${code ?? signal})`)));
    }).finally(() => clearTimeout(timer));
    await listening.catch((error: Error) => {
      throw new Error(`${launcher.name} did not list its mocks on ${ports.join(", ")}: ${error.message}\n${output}`);
    });
    expect(await Promise.all(ports.map(portAnswers)), output).toEqual([true, true, true, true]);

    tree = processTree(top.pid!);
    // The CLI is the one process that listens: the tree's only node process without children.
    const leaves = tree.filter((pid) => processTree(pid).length === 1 && /node/.test(commandLine(pid)));
    expect(leaves, tree.map((pid) => `${pid} ${commandLine(pid)}`).join("\n")).toHaveLength(1);
    const cli = leaves[0]!;
    expect(processTree(cli)).toEqual([cli]); // one process serves all four APIs

    process.kill(stop.target === "CLI" ? cli : stop.target === "process group" ? -top.pid! : top.pid!, stop.signal);
    const nothingLeft = async () =>
      tree.every((pid) => !isAlive(pid)) && !(await Promise.all(ports.map(portAnswers))).some(Boolean);
    const elapsed = await waitFor(nothingLeft, STOP_WITHIN_MS).catch(() => {
      const alive = tree.filter(isAlive).map((pid) => `${pid} ${commandLine(pid)}`);
      throw new Error(`still alive after ${STOP_WITHIN_MS} ms: ${alive.join("; ") || "(no process)"}\n${output}`);
    });
    expect(elapsed).toBeLessThan(STOP_WITHIN_MS);
  } finally {
    // Whatever a failed case left behind must not spoil the others.
    for (const pid of new Set([...tree, ...processTree(top.pid!)])) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  }
}
