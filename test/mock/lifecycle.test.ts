// `contracts mock` started the three ways frontend teams start it (`npm start`, `npx contracts mock`, `node
// dist/bin/contracts.js mock`), then stopped the ways a terminal, a supervisor or `docker stop` stop things: a
// signal to the top process only, or SIGKILL of the top process or of the CLI itself. Each time, within 3 s no
// process of the tree is alive and no port answers.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { testPort } from "../support/ports.js";
import { commandLine, contractsBin, isAlive, processTree, repoRoot } from "../support/processes.js";

const STOP_WITHIN_MS = 3000;
const LAUNCHERS = [
  { name: "npm start", command: "npm", args: (basePort: number) => ["start", "--", "--base-port", String(basePort)] },
  { name: "npx contracts mock", command: "npx", args: (basePort: number) => ["contracts", "mock", "--base-port", String(basePort)] },
  { name: "node dist/bin/contracts.js mock", command: process.execPath, args: (basePort: number) => [contractsBin, "mock", "--base-port", String(basePort)] },
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
const covered = (launcher: (typeof LAUNCHERS)[number], stop: Stop) => !(launcher.command === process.execPath && stop.target === "CLI");
const cases = LAUNCHERS.flatMap((launcher) => STOPS.filter((stop) => covered(launcher, stop)).map((stop) => ({ launcher, stop }))).map((c, i) => ({ ...c, basePort: testPort(4600 + 10 * i), label: `${c.launcher.name}: ${c.stop.signal} to the ${c.stop.target}` }));

let started: number[] = [];
// npx installs the repository into its cache keyed by the checkout's path; a fresh cache per run keeps an entry
// left by an older checkout at the same path (another package name, another build) out of the test.
const npmCache = mkdtempSync(join(tmpdir(), "lifecycle-npm-cache-"));

afterEach(() => {
  // Whatever a failed case left behind must not spoil the next one.
  for (const pid of started) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  started = [];
});

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const begin = performance.now();
  while (!(await condition())) {
    if (performance.now() - begin > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - begin;
}

describe("contracts mock leaves nothing behind", () => {
  it.each(cases)("$label", async ({ launcher, stop, basePort }) => {
    const ports = [0, 1, 2, 3].map((offset) => basePort + offset);
    // In its own process group, as a terminal starts a command, so that "process group" reaches this tree only.
    const top = spawn(launcher.command, launcher.args(basePort), { cwd: repoRoot, detached: true, env: { ...process.env, npm_config_update_notifier: "false", npm_config_cache: npmCache } });
    let output = "";
    top.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    top.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const allAnswer = async () => (await Promise.all(ports.map(portAnswers))).every(Boolean);
    await waitFor(allAnswer, 60_000).catch((error: Error) => {
      throw new Error(`${launcher.name} did not listen on ${ports.join(", ")}: ${error.message}\n${output}`);
    });

    const tree = processTree(top.pid!);
    started = tree;
    // The CLI is the one process that listens: the tree's only node process without children.
    const leaves = tree.filter((pid) => processTree(pid).length === 1 && /node/.test(commandLine(pid)));
    expect(leaves, tree.map((pid) => `${pid} ${commandLine(pid)}`).join("\n")).toHaveLength(1);
    const cli = leaves[0]!;
    expect(processTree(cli)).toEqual([cli]); // one process serves all four APIs

    process.kill(stop.target === "CLI" ? cli : stop.target === "process group" ? -top.pid! : top.pid!, stop.signal);
    const nothingLeft = async () => tree.every((pid) => !isAlive(pid)) && !(await Promise.all(ports.map(portAnswers))).some(Boolean);
    const elapsed = await waitFor(nothingLeft, STOP_WITHIN_MS).catch(() => {
      const alive = tree.filter(isAlive).map((pid) => `${pid} ${commandLine(pid)}`);
      throw new Error(`still alive after ${STOP_WITHIN_MS} ms: ${alive.join("; ") || "(no process)"}\n${output}`);
    });
    expect(elapsed).toBeLessThan(STOP_WITHIN_MS);
  });
});
