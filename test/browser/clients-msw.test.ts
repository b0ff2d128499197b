// The clients and the MSW handlers in a real browser: test/browser/page/main.ts is bundled by esbuild for the
// browser (no Node built-in may be reachable from it: esbuild fails on one), served on 127.0.0.1 with MSW's service
// worker script (copied from the installed msw by `msw init`, as an integrator does), and run in headless
// Chromium. The pay client signs with WebCrypto; the handlers check the signature like the sandbox does.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workerChromium } from "../support/chromium.js";
import { repoRoot } from "../support/processes.js";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "contracts-browser-"));
let server: Server;
let context: BrowserContext;
let origin = "";

beforeAll(async () => {
  await run(
    process.execPath,
    [join(repoRoot, "node_modules", "msw", "cli", "index.js"), "init", scratch, "--no-save"],
    { cwd: repoRoot },
  );
  const bundle = await build({
    entryPoints: [join(repoRoot, "test", "browser", "page", "main.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const files: Record<string, { type: string; body: string | Uint8Array }> = {
    "/": {
      type: "text/html",
      body: '<!doctype html><html><head><meta charset="utf-8"><title>clients + msw</title><script type="module" src="/main.js"></script></head><body></body></html>',
    },
    "/favicon.ico": { type: "image/x-icon", body: "" },
    "/main.js": { type: "text/javascript", body: bundle.outputFiles[0]!.contents },
    "/mockServiceWorker.js": { type: "text/javascript", body: readFileSync(join(scratch, "mockServiceWorker.js")) },
  };
  server = createServer((request, response) => {
    const file = files[new URL(request.url ?? "/", "http://x").pathname];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { "Content-Type": file.type, "Cache-Control": "no-store" }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  context = await (await workerChromium()).newContext();
}, 120_000);

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

describe("the pay and links clients with the MSW worker handlers in Chromium", () => {
  it("makes typed calls that the handlers answer, without a server behind them", async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    // Chromium logs every 4xx answer as "Failed to load resource"; the refusals below are expected ones.
    page.on(
      "console",
      (message) =>
        message.type() === "error" &&
        !message.text().startsWith("Failed to load resource") &&
        problems.push(message.text()),
    );
    page.on("pageerror", (error) => problems.push(error.message));
    // The API hosts do not exist: every API answer must come from the service worker, and nothing may fail.
    const apiAnswers: string[] = [];
    page.on("requestfailed", (request) => problems.push(`failed: ${request.url()}`));
    page.on("response", (response) => {
      if (response.url().startsWith(origin)) return;
      if (response.fromServiceWorker()) apiAnswers.push(response.url());
      else problems.push(`not from the worker: ${response.url()}`);
    });
    await page.goto(origin);
    const result = await page.evaluate(() => window.testResult);
    expect(problems).toEqual([]);
    expect(apiAnswers.length).toBeGreaterThanOrEqual(6);
    expect(result).toEqual({
      campaignName: "From the browser",
      listed: expect.arrayContaining(["From the browser"]),
      expired: expect.stringMatching(/^LinksApiError: GET \/api\/account failed \(HTTP 401\): /),
      balanceType: "success",
      orderUrl: expect.stringMatching(/^http:\/\/pay\.browser\.test\/_sandbox\/pay\/\d+$/),
      orderListed: true,
      badSignature: expect.stringMatching(/^PayApiError: POST \/api\/balance\/ failed/),
      payErrorClass: true,
      linksErrorClass: true,
    });
    await page.close();
  });
});
