// Every command of the README and the guides that picks a mock response (`Prefer`, `__code`, `__example`) is run,
// as written, by the shell and curl against the real mocks: it must get the status it asks for, the named example
// it asks for, and no `sl-violations` (the documented request is a valid one). The method and path are read from
// the command to find the named example in the contract.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES, listOperations, pointerSegment, resolvePointer } from "../support/bundle-nodes.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { extractSamples } from "../docs/support/samples.js";
import { testPort } from "../support/ports.js";
import { repoRoot } from "../support/processes.js";

const BASE_PORT = testPort(4150);
const pages = [
  "README.md",
  ...readdirSync(join(repoRoot, "docs/guide"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/guide/${f}`),
];

/** The shell commands (with `\` continuations joined) of the shell samples that choose a mock response. */
const commands = pages.flatMap((page) =>
  extractSamples(join(repoRoot, page))
    .filter((sample) => ["sh", "bash", "shell"].includes(sample.language))
    .flatMap((sample) =>
      sample.code
        .replace(/\\\n/g, " ")
        .split("\n")
        .map((text, i) => ({ page, line: sample.line + i, text: text.trim() })),
    )
    .filter(
      ({ text }) =>
        /^curl\s/.test(text) && /Prefer:|__code=|__example=/.test(text) && /127\.0\.0\.1:401[0-3]\b/.test(text),
    ),
);

let mocks: RunningMocks;

beforeAll(async () => {
  mocks = await startMocks({ ports: Object.fromEntries(API_NAMES.map((api, i) => [api, BASE_PORT + i])) });
});

afterAll(async () => {
  await mocks?.stop();
});

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Runs the command with sh, as written but with the ports of this test's mocks and curl's `-sS -i`. */
async function run(command: string): Promise<Answer> {
  const text = command
    .replace(/127\.0\.0\.1:401([0-3])\b/g, (_m, i: string) => `127.0.0.1:${BASE_PORT + Number(i)}`)
    .replace(/^curl\s/, "curl -sS -i ");
  let output: string;
  try {
    // Asynchronously: the mocks answer from this very process.
    output = (await promisify(execFile)("sh", ["-c", text], { encoding: "utf8" })).stdout;
  } catch (error) {
    throw new Error(`\`${command}\` failed: ${(error as { stderr?: string }).stderr ?? String(error)}`, {
      cause: error,
    });
  }
  const [head, ...rest] = output.split(/\r?\n\r?\n/);
  const [statusLine, ...headerLines] = head!.split(/\r?\n/);
  const headers = new Map(
    headerLines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine!.split(" ")[1]), headers, body: rest.join("\n\n") };
}

/** `Prefer: code=403, example=x` (or the query parameters) as { code, example }. */
function preferences(command: string): { code?: number; example?: string } {
  const prefer = /Prefer:\s*([^'"]+)/.exec(command)?.[1] ?? "";
  const query = /\?([^'"\s]+)/.exec(command)?.[1] ?? "";
  const pick = (name: string) =>
    new RegExp(`(?:^|[\\s,;])${name}=([^,;\\s]+)`).exec(prefer)?.[1] ??
    new URLSearchParams(query).get(`__${name}`) ??
    undefined;
  const code = pick("code");
  return { code: code === undefined ? undefined : Number(code), example: pick("example") };
}

function documentedExample(
  api: (typeof API_NAMES)[number],
  method: string,
  path: string,
  status: number,
  name: string,
): unknown {
  const op = listOperations(api).find(
    (o) =>
      !o.webhook &&
      o.method === method.toLowerCase() &&
      new RegExp(`^${o.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
  );
  expect(op, `${method} ${path} is not an operation of ${api}`).toBeDefined();
  const responses = op!.operation.responses as Record<string, unknown>;
  const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => k in responses)!;
  const content = resolvePointer(api, `${op!.pointer}/responses/${key}`).content ?? {};
  for (const mediaType of Object.keys(content)) {
    const pointer = `${op!.pointer}/responses/${key}/content/${pointerSegment(mediaType)}/examples/${pointerSegment(name)}`;
    if (content[mediaType].examples?.[name]) return resolvePointer(api, pointer).value;
  }
  throw new Error(`${api} ${method} ${path} documents no example ${name} for ${status}`);
}

describe("the docs' Prefer commands work against the mock", () => {
  it("finds the commands (README, the mock servers guide and getting started show them)", () => {
    expect(commands.filter((c) => c.page === "README.md").length).toBeGreaterThanOrEqual(1);
    expect(commands.filter((c) => c.page === "docs/guide/mock-servers.md").length).toBeGreaterThanOrEqual(3);
    expect(commands.filter((c) => c.page === "docs/guide/getting-started.md").length).toBeGreaterThanOrEqual(2);
  });

  it.each(commands.map((c) => [`${c.page}:${c.line}`, c.text] as const))("%s %s", async (_where, command) => {
    const api = API_NAMES[Number(/127\.0\.0\.1:401([0-3])\b/.exec(command)![1])]!;
    const url = new URL(/https?:\/\/\S+?(?=['"\s]|$)/.exec(command.replace(/'(https?:\/\/[^']+)'/, "$1"))![0]);
    const method = /-X\s+(\w+)/.exec(command)?.[1] ?? (/\s(-d|--data)\s/.test(command) ? "POST" : "GET");
    const { code, example } = preferences(command);
    const answer = await run(command);
    expect(answer.headers.get("sl-violations"), "the documented request is refused by the contract").toBeUndefined();
    if (code !== undefined) expect(answer.status).toBe(code);
    else expect(answer.status).toBeLessThan(300);
    if (example !== undefined)
      expect(JSON.parse(answer.body)).toEqual(documentedExample(api, method, url.pathname, answer.status, example));
  });
});
