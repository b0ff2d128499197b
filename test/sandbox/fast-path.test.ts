// The documented quick way to check the links sandbox (docs/guide/sandbox.md, "Checking the links sandbox quickly"):
// the sandbox command and the conform command run by sh exactly as the page shows them, the sandbox moved to this
// file's ports through SANDBOX_BASE_PORT (as `contracts sandbox` reads it) and the conform command's URL moved with it,
// digit for digit. The run passes, rate_limit_headers_consistent included (it failed on every response with
// `--rate-limit off`), read-only and with --allow-writes, and prints what the page says. How long it takes is not
// timed here (speed lives in bench/): the run's requests at the page's 30 per second bound its rate-limit waits.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractSamples } from "../docs/support/samples.js";
import { missingLines } from "../mock/support/guide-commands.js";
import { testPort } from "../support/ports.js";
import { repoRoot, type RunningCommand, spawnCommand } from "../support/processes.js";

const PAGE = "docs/guide/sandbox.md";
const BASE = testPort(4930);
const samples = extractSamples(join(repoRoot, PAGE));
const at = (pattern: RegExp) => samples.findIndex((s) => s.language === "sh" && pattern.test(s.code));
const sandboxBlock = samples[at(/contracts sandbox --rate-limit/)];
const conformAt = at(/contracts conform links/);
const conformBlock = samples[conformAt];
const printed = samples[conformAt + 1]?.language === "text" ? samples[conformAt + 1]!.code : undefined;
const toTestPorts = (code: string) =>
  code.replace(/127\.0\.0\.1:402([0-3])\b/g, (_m, i: string) => `127.0.0.1:${BASE + Number(i)}`);

let sandbox: RunningCommand;

beforeAll(async () => {
  expect(sandboxBlock, `${PAGE} shows how to start the sandbox for a quick links run`).toBeDefined();
  sandbox = spawnCommand("sh", ["-e", "-c", `exec ${sandboxBlock!.code.trim()}`], repoRoot, {
    SANDBOX_BASE_PORT: String(BASE),
  });
  await sandbox.waitForOutput(new RegExp(`pay\\s+http://127\\.0\\.0\\.1:${BASE + 3}\\b`), 90_000);
}, 120_000);

afterAll(async () => {
  if (sandbox && sandbox.child.exitCode === null) sandbox.child.kill("SIGTERM");
  await sandbox?.exit;
});

describe("the quick links check of the sandbox guide", () => {
  it.each([
    ["as written", ""],
    ["with --allow-writes", " --allow-writes"],
  ])(
    "%s: passes, rate_limit_headers_consistent included",
    async (_name, more) => {
      expect(conformBlock, `${PAGE} shows the conform command of the quick run`).toBeDefined();
      const command = `${toTestPorts(conformBlock!.code.trim())}${more}`;
      expect(command).toContain(`127.0.0.1:${BASE + 1}`);
      const { stdout, stderr } = await promisify(execFile)("sh", ["-e", "-c", `exec 2>&1\n${command}`], {
        cwd: repoRoot,
        timeout: 240_000,
      }).catch((error: { code: number; stdout: string; stderr: string }) =>
        Promise.reject(new Error(`exit ${error.code}: ${command}\n${error.stdout}\n${error.stderr}`)),
      );
      expect(stderr).toBe("");
      const consistent = /rate_limit_headers_consistent\s+passed (\d+)(.*)$/m.exec(stdout);
      expect(consistent, stdout).not.toBeNull();
      expect(Number(consistent![1]), stdout).toBeGreaterThan(30);
      expect(consistent![2], stdout).not.toMatch(/failed/);
      const requests = Number(/no failures on links \((\d+) requests\)/.exec(stdout)?.[1]);
      // At 30 a second, the windows a run waits for add up to under a minute.
      expect(requests, stdout).toBeLessThan(30 * 50);
      if (printed !== undefined) expect(missingLines(stdout, printed), stdout).toEqual([]);
    },
    300_000,
  );
});
