// npm test runs its steps side by side with scripts/run-parallel.mjs, each static check's output printed whole when it
// ends and Vitest's (--live) as it comes.
// A CI log is a pipe its reader empties at its own pace; run-p ended with process.exit() while a write to such a pipe
// waited, and everything past the pipe's 64 KiB was lost (Vitest's failures and summary among it). Here the reader
// takes nothing until the runner has exited, or for 3 s if it waits for its output to be taken, as it must.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/processes.js";

const BIG = 300_000;
const app = mkdtempSync(join(tmpdir(), "run-parallel-"));
writeFileSync(
  join(app, "package.json"),
  JSON.stringify({
    private: true,
    scripts: {
      big: `node -e "process.stdout.write('@'.repeat(${BIG}) + '\\nbig done\\n')"`,
      small: "echo small done",
      failing: "echo failing done && exit 3",
      // Says it started, then waits until the test has seen that line (the file it names exists) before it ends; gives
      // up after 15 s.
      waiting: `node -e "console.log('waiting started'); const f = process.argv[1]; setTimeout(() => (console.log('waiting gave up: nobody read its first line'), process.exit(1)), 15000).unref(); const t = setInterval(() => require('fs').existsSync(f) && (clearInterval(t), console.log('waiting done')), 50)" ${join(app, "seen")}`,
    },
  }),
);
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** The runner's exit code and everything it printed, read through a pipe nobody empties while the runner runs. */
async function runThroughSlowPipe(scripts: string[]): Promise<{ code: number | null; output: string }> {
  const runner = spawn(process.execPath, [join(repoRoot, "scripts/run-parallel.mjs"), ...scripts], { cwd: app });
  let output = "";
  // Listened to, then paused before anything is read: a stream nobody listens to is emptied into the void when the
  // runner exits (Node's child_process flushes it), and a runner that ends within 3 s would seem to print nothing.
  runner.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  runner.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  runner.stdout.pause();
  runner.stderr.pause();
  const exited = new Promise<number | null>((resolve) => runner.once("exit", (code) => resolve(code)));
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
  runner.stdout.resume();
  runner.stderr.resume();
  await new Promise((resolve) => runner.once("close", resolve));
  return { code: await exited, output };
}

describe("scripts/run-parallel.mjs", () => {
  it("prints all of a script's output however slowly the pipe is read", async () => {
    const { code, output } = await runThroughSlowPipe(["big", "small"]);
    expect(code).toBe(0);
    expect(output.match(/@+/g)?.map((run) => run.length)).toContain(BIG);
    expect(output).toContain("big done");
    expect(output).toContain("small done");
  });

  it("runs every script to its end, prints each, and fails when one failed", async () => {
    const { code, output } = await runThroughSlowPipe(["failing", "big"]);
    expect(code).toBe(1);
    expect(output).toContain("failing done");
    expect(output).toContain("big done");
    expect(output).toMatch(/"failing" exited with 3/);
  });

  it("prints the --live script's output as it comes, beside the others printed whole", async () => {
    const runner = spawn(process.execPath, [join(repoRoot, "scripts/run-parallel.mjs"), "small", "--live", "waiting"], {
      cwd: app,
    });
    let output = "";
    runner.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const started = new Promise<void>((resolve) =>
      runner.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("waiting started")) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => runner.once("close", (code) => resolve(code)));
    // Printed whole at its end, the line would come only after the file it waits for: it never would.
    const seen = await Promise.race([started.then(() => true), exited.then(() => false)]);
    expect(seen, output).toBe(true);
    writeFileSync(join(app, "seen"), "");
    expect(await exited, output).toBe(0);
    expect(output).toContain("small done");
    expect(output.indexOf("waiting started")).toBeLessThan(output.indexOf("waiting done"));
  });

  it("fails when the --live script failed", async () => {
    const { code, output } = await runThroughSlowPipe(["small", "--live", "failing"]);
    expect(code).toBe(1);
    expect(output).toContain("small done");
    expect(output).toMatch(/"failing" exited with 3/);
  });

  it("with --quiet, prints a script that succeeds as one line and one that fails whole, each kept in a log", async () => {
    const { code, output } = await runThroughSlowPipe(["--quiet", "failing", "big"]);
    expect(code).toBe(1);
    expect(output).not.toContain("big done");
    expect(output).toContain("ok big (output in .tmp/run-parallel/big.log)");
    expect(output).toContain("failing done");
    expect(output).toMatch(/"failing" exited with 3/);
    expect(readFileSync(join(app, ".tmp/run-parallel/big.log"), "utf8")).toContain("big done");
    expect(readFileSync(join(app, ".tmp/run-parallel/failing.log"), "utf8")).toContain("failing done");
  });

  it("is what npm test and its static checks run side by side with", () => {
    const scripts = (
      JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.test).toContain("node scripts/run-parallel.mjs test:static --live test:vitest");
    expect(scripts["test:static"]).toMatch(/^node scripts\/run-parallel\.mjs --quiet /);
    expect(Object.values(scripts).join("\n")).not.toMatch(/\brun-p\b/);
  });
});
