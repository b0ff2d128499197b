// Executable guides, the TypeScript half (test/mock/docs-commands.test.ts runs the shell half): every TypeScript
// sample of README.md and docs/guide/*.md runs as a reader runs it, copied from the Markdown source into a file of
// an application that installed both packages from the tarballs `npm run pack` writes (as the README says to try
// them before they are published), and run there with `npx tsx <file>`, against the mock or the sandbox its URLs
// name. What is checked:
// - it ends with exit 0 and writes nothing to stderr (a sample whose page shows it warning or failing says so in a
//   ```text block);
// - a ```text block right after the sample (or after a line that introduces it) is what it prints: each of its lines,
//   in order (`...` for anything);
// - a sample that is a server (`.listen(<port>)`, its port moved too) is started and used as its page says: the
//   identity application answers a sign-in cancelled on the sandbox's page (access_denied) without crashing, then
//   signs alice in through the sandbox and greets her; the issuance receiver gets a sale from the
//   sandbox and issues its code.
// So that two runs never meet on a port, the samples' ports are moved to this file's test ports, digit for digit
// (`127.0.0.1:4011` and the like, nothing else of the code changes). The sandbox's links limit is the contract's 30
// requests per 5 s instead of per 60 s, so that the rate-limit sample waits seconds, not a minute.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES } from "../../lib/contract/index.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { defaultConfig } from "../../mock/sandbox/config.js";
import { type RunningSandbox, startSandbox } from "../../mock/sandbox/server.js";
import { cancelAtSandbox, signInAtSandbox } from "../../mock/sandbox/sign-in.js";
import { extractSamples, type Sample } from "../docs/support/samples.js";
import { missingLines } from "../mock/support/guide-commands.js";
import { appWithBothPackages } from "../support/installed-packages.js";
import { portAnswers, testPort } from "../support/ports.js";
import { repoRoot, type RunningCommand, spawnCommand } from "../support/processes.js";

const run = promisify(execFile);
const MOCK_PORT = testPort(4900);
const SANDBOX_PORT = testPort(4910);
/** The samples' own servers: the identity guide's application (5173) and the catalog guide's receiver (8080). */
const OWN_PORTS: Record<string, number> = { "5173": testPort(4920), "8080": testPort(4921) };
const pages = [
  "README.md",
  ...readdirSync(join(repoRoot, "docs/guide"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/guide/${f}`),
];

interface RunnableSample {
  sample: Sample;
  /** The ```text block that follows it: what it prints. */
  prints?: string;
}

function typescriptSamples(page: string, markdown?: string): RunnableSample[] {
  const samples = extractSamples(join(repoRoot, page), markdown);
  return samples.flatMap((sample, i) => {
    if (!["ts", "typescript"].includes(sample.language)) return [];
    const next = samples[i + 1];
    // Right after it, or after one line that introduces it ("It prints:").
    const adjacent =
      next && next.language === "text" && next.line - (sample.line + sample.code.split("\n").length) <= 6;
    return [{ sample, prints: adjacent ? next.code : undefined }];
  });
}

const byPage = pages.map((page) => ({ page, samples: typescriptSamples(page) })).filter((p) => p.samples.length > 0);

/** The sample with its ports moved to this file's, digit for digit. */
function toTestPorts(code: string): string {
  return code
    .replace(/127\.0\.0\.1:(\d{4})\b/g, (whole, port: string) => {
      const local = /^40([12])([0-3])$/.exec(port);
      if (local) return `127.0.0.1:${(local[1] === "1" ? MOCK_PORT : SANDBOX_PORT) + Number(local[2])}`;
      return OWN_PORTS[port] ? `127.0.0.1:${OWN_PORTS[port]}` : whole;
    })
    .replace(/\.listen\((\d+)\b/g, (whole, port: string) => (OWN_PORTS[port] ? `.listen(${OWN_PORTS[port]}` : whole));
}

/** The run's application with both packages installed from their tarballs (test/support/installed-packages.ts). */
let app: string;
let mocks: RunningMocks;
let sandbox: RunningSandbox;
const started: RunningCommand[] = [];

beforeAll(async () => {
  const installed = appWithBothPackages().then((dir) => (app = dir));
  const identity = defaultConfig();
  const client = identity.identity.clients[0]!;
  client.redirect_uris = client.redirect_uris.map(toTestPorts);
  client.post_logout_redirect_uris = client.post_logout_redirect_uris?.map(toTestPorts);
  [mocks, sandbox] = await Promise.all([
    startMocks({ apis: ["links"], ports: { links: MOCK_PORT + 1 } }),
    startSandbox({
      ports: Object.fromEntries(API_NAMES.map((api, i) => [api, SANDBOX_PORT + i])),
      config: identity,
      rateLimit: { limit: 30, windowSeconds: 5 },
    }),
    installed,
  ]);
}, 300_000);

afterAll(async () => {
  for (const command of started) if (command.child.exitCode === null) command.child.kill("SIGTERM");
  await Promise.all([...started.map((command) => command.exit), mocks?.stop(), sandbox?.stop()]);
});

/** The sample saved into the application as the reader saves it, and its file. */
function save({ sample }: RunnableSample): string {
  const file = join(app, `${sample.page.replace(/\W+/g, "-")}-${sample.line}.ts`);
  writeFileSync(file, toTestPorts(sample.code));
  return file;
}

const tsx = () => join(app, "node_modules", ".bin", "tsx");

async function runToEnd(runnable: RunnableSample): Promise<{ stdout: string; stderr: string }> {
  return run(tsx(), [save(runnable)], { cwd: app, timeout: 60_000 }).catch(
    (error: { code: number; stdout: string; stderr: string }) =>
      Promise.reject(new Error(`exit ${error.code}\n--- stdout:\n${error.stdout}\n--- stderr:\n${error.stderr}`)),
  );
}

/** Starts a sample that listens on `port`, and resolves once it answers there. */
async function startServer(runnable: RunnableSample, port: number): Promise<RunningCommand> {
  const command = spawnCommand(tsx(), [save(runnable)], app);
  started.push(command);
  const deadline = Date.now() + 60_000;
  while (!(await portAnswers(port))) {
    if (command.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the sample did not listen on ${port}:\n${command.stdout()}\n${command.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return command;
}

/** The identity guide's application: /login sends the browser to the sandbox, alice signs in, /callback greets her. */
async function signInThrough(appUrl: string): Promise<string> {
  const login = await fetch(`${appUrl}/login`, { redirect: "manual" });
  expect(login.status).toBe(302);
  const demo = defaultConfig().identity.accounts[0]!;
  const callback = await signInAtSandbox(new URL(login.headers.get("location")!), {
    redirectUri: `${appUrl}/callback`,
    login: demo.claims.email!,
    password: demo.password,
  });
  const greeting = await fetch(callback);
  expect(greeting.status).toBe(200);
  return greeting.text();
}

/** The identity guide's application: /login sends the browser to the sandbox, where the user presses Cancel. */
async function cancelThrough(appUrl: string): Promise<{ status: number; text: string }> {
  const login = await fetch(`${appUrl}/login`, { redirect: "manual" });
  expect(login.status).toBe(302);
  const callback = await cancelAtSandbox(new URL(login.headers.get("location")!), {
    redirectUri: `${appUrl}/callback`,
  });
  expect(callback.searchParams.get("error")).toBe("access_denied");
  const answer = await fetch(callback);
  return { status: answer.status, text: await answer.text() };
}

/** The catalog guide's receiver: an external_api product, the shop's issuance URL, a sale the sandbox sends there. */
async function sellThrough(receiverUrl: string): Promise<{ outcome: string; reply: { body: string } }> {
  const catalog = sandbox.urls.catalog;
  const headers = { "x-seller-api-key": "demo-seller-key", "content-type": "application/json" };
  const created = await fetch(`${catalog}/admin/seller-api/products`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": `guide-samples-${Date.now()}` },
    body: JSON.stringify({
      title: "VPN Subscription",
      delivery_type: "external_api",
      category_id: "pcat_8kq2m4x7",
      status: "published",
      variants: [{ title: "1 month", prices: [{ amount: 4.99, currency_code: "usd" }] }],
    }),
  });
  const { id } = (await created.json()) as { id: string };
  const body = JSON.stringify({ issuance_url: receiverUrl });
  expect((await fetch(`${catalog}/_sandbox/shop`, { method: "PATCH", headers, body })).status).toBe(200);
  const sale = await fetch(`${catalog}/_sandbox/sales`, {
    method: "POST",
    headers,
    body: JSON.stringify({ product_id: id }),
  });
  return (await sale.json()) as { outcome: string; reply: { body: string } };
}

/** Runs a page's samples after each other, in the order of the page, as a reader tries them. */
async function runPage(page: string, samples: RunnableSample[]): Promise<void> {
  for (const runnable of samples) {
    const where = `${page}:${runnable.sample.line}`;
    const listen = /\.listen\((\d+)/.exec(runnable.sample.code)?.[1];
    if (listen) {
      const port = OWN_PORTS[listen];
      expect(port, `${where} listens on ${listen}, which this test does not know`).toBeDefined();
      const server = await startServer(runnable, port!);
      const url = `http://127.0.0.1:${port}`;
      if (listen === "5173") {
        // Cancel pressed on the sign-in page first: the application says so and keeps running; then alice signs in.
        expect(await cancelThrough(url), where).toEqual({ status: 403, text: "Sign-in refused: access_denied" });
        expect(await signInThrough(url), where).toBe("Hello Alice Novak");
      } else {
        const sale = await sellThrough(url);
        expect(sale, where).toMatchObject({ outcome: "issued", reply: { body: expect.stringContaining("VPN-") } });
      }
      server.child.kill("SIGTERM");
      await server.exit;
      expect(server.stderr(), where).toBe("");
      continue;
    }
    const { stdout, stderr } = await runToEnd(runnable);
    const output = `${stdout}${stderr}`;
    if (runnable.prints !== undefined)
      expect(
        missingLines(output, toTestPorts(runnable.prints)),
        `${where}: its page says it prints\n${runnable.prints}\nbut it printed\n${output}`,
      ).toEqual([]);
    else expect(stderr, `${where} writes to stderr`).toBe("");
  }
}

describe("the guides' TypeScript samples run from the packed packages", () => {
  it("finds the samples of every page that shows them, and each page's printed output", () => {
    const shown = byPage.map(({ page }) => page);
    for (const name of ["getting-started", ...API_NAMES, "packages", "sandbox"])
      expect(shown).toContain(`docs/guide/${name}.md`);
    expect(shown).toContain("README.md");
    expect(byPage.flatMap((p) => p.samples).filter((s) => s.prints).length).toBeGreaterThanOrEqual(6);
  });

  it.each(byPage.map(({ page, samples }) => [page, samples] as const))("%s", runPage, 240_000);

  it("fails on a broken copy of a guide: a sample that calls a wrong path, or a page that says it prints otherwise", async () => {
    const page = "docs/guide/links.md";
    const links = readFileSync(join(repoRoot, page), "utf8");
    const firstSample = (markdown: string) => typescriptSamples(page, markdown).slice(0, 1);
    const wrongPath = links.replace('links.GET("/api/account")', 'links.GET("/api/acount" as "/api/account")');
    expect(wrongPath).not.toBe(links);
    await expect(runPage(page, firstSample(wrongPath))).rejects.toThrow(
      /links\.md:\d+: its page says it prints[\s\S]*but it printed\nHTTP 404/,
    );
    const otherOutput = links.replace("demo is on the pro plan", "demo is on the free plan");
    expect(otherOutput).not.toBe(links);
    await expect(runPage(page, firstSample(otherOutput))).rejects.toThrow(
      /links\.md:\d+: its page says it prints\ndemo is on the free plan/,
    );
  }, 60_000);
});
