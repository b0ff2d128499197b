// `contracts mock` started the three ways frontend teams start it (`npm start`, `npx contracts mock`, `node
// dist/bin/contracts.js mock`), then stopped the ways a terminal, a supervisor or `docker stop` stop things: a
// signal to the top process only, or SIGKILL of the top process or of the CLI itself. Each time, within 3 s no
// process of the tree is alive and no port answers. The cases run concurrently (each on its own ports, in its own
// process group), so that one case's start-up overlaps another's wait.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { portAnswers, testPort } from "../support/ports.js";
import { commandLine, contractsBin, isAlive, processTree, repoRoot } from "../support/processes.js";

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
const cases = LAUNCHERS.flatMap((launcher) =>
  STOPS.filter((stop) => covered(launcher, stop)).map((stop) => ({ launcher, stop })),
).map((c, i) => ({
  ...c,
  basePort: testPort(4600 + 10 * i),
  label: `${c.launcher.name}: ${c.stop.signal} to the ${c.stop.target}`,
}));

// npx installs the repository into its cache keyed by the checkout's path; a fresh cache per run keeps an entry
// left by an older checkout at the same path (another package name, another build) out of the test. Installing it
// there runs the package's `prepare` (a full tsc build) unless scripts are ignored: that build would rewrite dist/
// while the other test files run it, and has nothing to do with how the mocks stop.
const npmCache = mkdtempSync(join(tmpdir(), "lifecycle-npm-cache-"));
const env = {
  ...process.env,
  npm_config_update_notifier: "false",
  npm_config_cache: npmCache,
  npm_config_ignore_scripts: "true",
};
afterAll(() => rmSync(npmCache, { recursive: true, force: true }));

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const begin = performance.now();
  while (!(await condition())) {
    if (performance.now() - begin > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - begin;
}

describe.concurrent("contracts mock leaves nothing behind", () => {
  it.for(cases)("$label", async ({ launcher, stop, basePort }, { expect }) => {
    const ports = [0, 1, 2, 3].map((offset) => basePort + offset);
    // In its own process group, as a terminal starts a command, so that "process group" reaches this tree only.
    const top = spawn(launcher.command, launcher.args(basePort), { cwd: repoRoot, detached: true, env });
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
  });
});
