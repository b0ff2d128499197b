// Executable guides: every shell block of the README and the guides that talks to the local mock (ports 4010-4013)
// or sandbox (4020-4023), or signs in at the sandbox (`contracts sandbox sign-in`), is run by sh as a reader copies
// it from the Markdown source, the blocks of a page one after the other in one shell (a later block uses what an
// earlier one set, as in one terminal). What is checked:
// - every command succeeds (sh -e) and every curl gets the status it asks for (`Prefer: code=`, `__code=`), else a
//   2xx, with no `sl-violations` (the documented request is a valid one);
// - a named example (`Prefer: example=`, `__example=`) is answered with that example of the contract;
// - a ```text block right after a shell block is what the block prints: each of its lines, in order, is found in
//   the output (case-insensitively, for HTTP headers; with this file's ports), and `...` stands for anything.
// The guides name the default ports. So that two runs never meet there, the script's ports are rewritten to this
// file's test ports (one digit-for-digit substitution of `127.0.0.1:40xy`, nothing else of the command changes) and
// `contracts sandbox sign-in` finds the sandbox through SANDBOX_BASE_PORT, as `contracts sandbox` would. Only this
// file runs the guides' commands, but for the links conformance run against a sandbox started with the rate its page
// gives (`--rate-limit 30/s`): test/sandbox/fast-path.test.ts starts that sandbox as written and runs it.
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES } from "../../lib/contract/index.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { type RunningSandbox, startSandbox } from "../../mock/sandbox/server.js";
import { extractSamples, type Sample } from "../docs/support/samples.js";
import { testPort } from "../support/ports.js";
import { gitOutput, repoRoot } from "../support/processes.js";
import { documentedExample, missingLines, preferences } from "./support/guide-commands.js";

const MOCK_PORT = testPort(4150);
const SANDBOX_PORT = testPort(4170);
const LOCAL = /127\.0\.0\.1:40([12])([0-3])\b/g;
const pages = [
  "README.md",
  ...readdirSync(join(repoRoot, "docs/guide"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/guide/${f}`),
];

interface Block {
  sample: Sample;
  /** The ```text block that follows it: what it prints. */
  prints?: string;
}

/** The shell blocks of a page that run locally, with the output block that follows each. */
function localBlocks(page: string): Block[] {
  const samples = extractSamples(join(repoRoot, page));
  return samples.flatMap((sample, i) => {
    if (!["sh", "bash", "shell"].includes(sample.language)) return [];
    if (!new RegExp(LOCAL.source).test(sample.code) && !/contracts sandbox sign-in/.test(sample.code)) return [];
    if (/contracts conform links .*--rate-limit/.test(sample.code)) return []; // fast-path.test.ts runs it
    const next = samples[i + 1];
    const adjacent =
      next && next.language === "text" && next.line - (sample.line + sample.code.split("\n").length) <= 4;
    return [{ sample, prints: adjacent ? next.code : undefined }];
  });
}

const byPage = pages.map((page) => ({ page, blocks: localBlocks(page) })).filter((p) => p.blocks.length > 0);

let mocks: RunningMocks;
let sandbox: RunningSandbox;
const bin = mkdtempSync(join(tmpdir(), "guide-commands-"));

beforeAll(async () => {
  [mocks, sandbox] = await Promise.all([
    startMocks({ ports: Object.fromEntries(API_NAMES.map((api, i) => [api, MOCK_PORT + i])) }),
    startSandbox({ ports: Object.fromEntries(API_NAMES.map((api, i) => [api, SANDBOX_PORT + i])) }),
  ]);
  // curl as the reader runs it, plus a line after each answer with its status, method and URL, to judge it by.
  writeFileSync(
    join(bin, "curl"),
    `#!/bin/sh\nexec /usr/bin/curl -sS -w '\\n@@curl %{http_code} %{method} %{url_effective} %header{sl-violations}@@\\n' "$@"\n`,
  );
  chmodSync(join(bin, "curl"), 0o755);
});

afterAll(async () => {
  await Promise.all([mocks?.stop(), sandbox?.stop()]);
});

const toTestPorts = (code: string) =>
  code.replace(
    LOCAL,
    (_m, kind: string, i: string) => `127.0.0.1:${(kind === "1" ? MOCK_PORT : SANDBOX_PORT) + Number(i)}`,
  );

interface CurlAnswer {
  status: number;
  method: string;
  url: string;
  violations: string;
  body: string;
}

/** Runs the page's blocks in one sh -e, returning each block's output with its curl answers. */
async function runPage(blocks: Block[]): Promise<{ output: string; answers: CurlAnswer[] }[]> {
  const script = blocks.map((block, i) => `printf '@@block ${i}@@\\n'\n${toTestPorts(block.sample.code)}\n`).join("\n");
  const { stdout } = await promisify(execFile)("sh", ["-e", "-c", `exec 2>&1\n${script}`], {
    cwd: repoRoot,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, SANDBOX_BASE_PORT: String(SANDBOX_PORT) },
    encoding: "utf8",
    // Only a guard against a hang: a page that runs three conform runs took over 120 s on a loaded 2-core machine.
    timeout: 600_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`${error.message}\n--- stdout:\n${error.stdout}\n--- stderr:\n${error.stderr}`, { cause: error });
  });
  return stdout
    .split(/^@@block \d+@@\n/m)
    .slice(1)
    .map((text) => {
      const answers: CurlAnswer[] = [];
      let rest = text;
      for (const match of text.matchAll(/\n?@@curl (\d+) (\S+) (\S+) ?([^@]*)@@\n/g)) {
        const body = rest.slice(0, rest.indexOf(match[0]));
        rest = rest.slice(body.length + match[0].length);
        answers.push({ status: Number(match[1]), method: match[2]!, url: match[3]!, violations: match[4]!, body });
      }
      return { output: text.replace(/\n?@@curl [^@]*@@\n/g, "\n"), answers };
    });
}

const gitStatus = () => gitOutput(["status", "--porcelain"]);

describe("the guides' shell commands run against the mock and the sandbox", () => {
  it("finds them on the pages that show them (the identity guide signs in with contracts sandbox sign-in)", () => {
    const counts = Object.fromEntries(byPage.map(({ page, blocks }) => [page, blocks.length]));
    for (const page of ["README.md", "docs/guide/getting-started.md", "docs/guide/mock-servers.md"])
      expect(counts[page], page).toBeGreaterThanOrEqual(1);
    for (const api of API_NAMES) expect(counts[`docs/guide/${api}.md`], api).toBeGreaterThanOrEqual(1);
    expect(byPage.flatMap((p) => p.blocks).filter((b) => b.prints).length).toBeGreaterThanOrEqual(3);
  });

  it.each(byPage.map(({ page, blocks }) => [page, blocks] as const))(
    "%s",
    async (page, blocks) => {
      const before = await gitStatus();
      const results = await runPage(blocks);
      expect(
        await gitStatus(),
        `${page}: its commands leave the checkout as it was (reports go to the ignored reports/)`,
      ).toBe(before);
      expect(results).toHaveLength(blocks.length);
      blocks.forEach((block, b) => {
        const where = `${page}:${block.sample.line}`;
        const { output, answers } = results[b]!;
        const commands = block.sample.code.replace(/\\\n/g, " ").split("\n");
        const curls = commands.filter((line) => /^\s*(\w+=\S*\s+)*curl\s/.test(line));
        expect(answers.length, `${where}: one answer per curl`).toBe(curls.length);
        curls.forEach((command, c) => {
          const answer = answers[c]!;
          const { code, example } = preferences(command);
          const asked = `${where}: ${command.trim()}\n${answer.body}`;
          if (code !== undefined) expect(answer.status, asked).toBe(code);
          else expect(answer.status, asked).toBeLessThan(300);
          expect(answer.status, asked).toBeGreaterThanOrEqual(200);
          expect(answer.violations, `${asked}\nthe documented request is refused by the contract`).toBe("");
          if (example !== undefined) {
            const url = new URL(answer.url);
            const api = API_NAMES[Number(url.port) - MOCK_PORT]!;
            const value = documentedExample(api, answer.method, url.pathname, answer.status, example);
            expect(
              JSON.parse(answer.body.replace(/^[\s\S]*?\r?\n\r?\n/, (head) => (/^HTTP\//.test(head) ? "" : head))),
              asked,
            ).toEqual(value);
          }
        });
        if (block.prints !== undefined)
          expect(missingLines(output, toTestPorts(block.prints)), `${where} prints\n${output}`).toEqual([]);
      });
    },
    660_000,
  );
});
