// The --html report in Chromium, as a QA engineer opens it from a ticket: it renders with the network closed (every
// request the page tries is recorded and refused: there must be none), it shows the coverage matrix and every
// failure's reproduction, and no form of any secret is in the file or in the text the browser renders from it.
// The fault servers get secrets with the characters encodings treat differently, and each run fails on purpose.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { startLinksServer } from "../../conformance/fault-servers/links.js";
import { startPayServer } from "../../conformance/fault-servers/pay.js";
import { groupCauses } from "../../conformance/report/causes.js";
import { htmlReport } from "../../conformance/report/report-html.js";
import type { RunReport } from "../../conformance/report/report.js";
import { installChromiumIfMissing } from "../../scripts/docs/chromium.js";
import { workerChromium } from "../support/chromium.js";
import { conformInProcess } from "../support/conform.js";
import { secretForms } from "../support/secret-forms.js";

const SPECIAL = "~!'()+/= x\"<&>";
const secrets = { LINKS_TOKEN: `links${SPECIAL}1`, PAY_SECRET: `pay${SPECIAL}3` };
const env = { ...FAULT_SERVER_CREDENTIALS, ...secrets };

let browser: Browser;
beforeAll(async () => {
  installChromiumIfMissing();
  browser = await workerChromium();
});

const cases = [
  [
    "links",
    () => startLinksServer({ token: secrets.LINKS_TOKEN, fault: "wrong-content-type", rateLimit: { windowMs: 1000 } }),
    ["--operation", "getAccount", "--operation", "listDomains"],
  ],
  [
    "pay",
    () => startPayServer({ shopId: env.PAY_SHOP_ID, secret: secrets.PAY_SECRET, fault: "nonce-not-checked" }),
    ["--operation", "getBalance"],
  ],
] as const;

describe("contracts conform --html", () => {
  it.each(cases)(
    "%s: renders offline with the coverage matrix, every reproduction and no secret",
    async (api, start, args) => {
      const server = await start();
      const file = join(tmpdir(), `conform-html-${api}-${process.pid}.html`);
      try {
        const base = ["--base-url", server.url, "--max-examples", "3", "--rate-limit", "1000/s", "--seed", "4"];
        const run = await conformInProcess([api, ...base, ...args, "--html", file], env);
        expect(run.code, run.output).toBe(1);
        expect(run.report.failures.length).toBeGreaterThan(0);
        const html = readFileSync(file, "utf8");
        // Self-contained: no script, no stylesheet or image to fetch (the page's CSP would also refuse them).
        expect(html).not.toMatch(/<script|<link|<img|\b(src|href)=|url\(/i);

        const context = await browser.newContext({ javaScriptEnabled: false });
        const attempted: string[] = [];
        await context.route("**/*", (route) => {
          attempted.push(route.request().url());
          return route.abort();
        });
        const page = await context.newPage();
        page.on("request", (request) => attempted.push(request.url()));
        await page.setContent(html, { waitUntil: "load" });
        const text = await page.locator("body").innerText();
        expect(attempted).toEqual([]);
        expect(await page.title()).toBe(`contracts conform ${api}: FAILED`);

        // The matrix: one row per operation of the API, the reached ones and the ones the run was restricted away from.
        const coverage = run.report.coverage!;
        expect(await page.locator("table.coverage tr.reached").count()).toBe(coverage.operations.reached);
        expect(await page.locator("table.coverage tr.not-reached").count()).toBe(
          coverage.operations.total - coverage.operations.reached,
        );
        expect(await page.locator("table.coverage td.cell.failed").count()).toBeGreaterThan(0);

        // Every cause, with one reproduction exactly as the JSON report has it and every operation it fails; secrets
        // are named by their variable.
        const causes = groupCauses(api, run.report.failures);
        const reproductions = await page.locator("pre.reproduction").allInnerTexts();
        expect(reproductions).toEqual(causes.map((c) => c.reproduction.curl));
        for (const cause of causes) expect(text).toContain(`${cause.check}: ${cause.message}`);
        for (const failure of run.report.failures) expect(text).toContain(failure.operationId);
        expect(reproductions.join("\n")).toContain(api === "links" ? "${LINKS_TOKEN}" : '"$PAY_SECRET"');

        const leaks = [
          ...Object.values(secrets).flatMap(secretForms),
          ...[...server.secretsSeen].filter((s) => s.length >= 8),
        ];
        for (const [where, content] of Object.entries({ file: html, rendered: text }))
          for (const leak of leaks)
            expect(content.includes(leak), `the ${where} shows ${JSON.stringify(leak.slice(0, 12))}…`).toBe(false);
        await context.close();
      } finally {
        await server.close();
      }
    },
  );
});

describe("htmlReport", () => {
  it("escapes every text, lists the baseline, and passes every text through the redaction", () => {
    const report: RunReport = {
      api: "links",
      baseUrl: "http://127.0.0.1:1",
      seed: 1,
      maxExamples: 1,
      allowWrites: false,
      startedAt: "2026-01-01T00:00:00.000Z",
      finishedAt: "2026-01-01T00:00:01.000Z",
      interrupted: false,
      requests: 1,
      checks: [],
      skippedOperations: [],
      failures: [
        {
          check: "not_a_server_error",
          operationId: "getAccount",
          message: "<script>alert(1)</script> SECRET-VALUE",
          case: "example",
          shrunk: false,
          occurrences: 1,
          request: { method: "GET", url: "http://127.0.0.1:1/api/account", headers: {} },
          curl: "curl 'http://127.0.0.1:1/api/account?a=1&b=2'",
          known: true,
          key: "not_a_server_error | getAccount",
        },
      ],
      warnings: [],
      observations: [],
      resources: [],
      baseline: {
        file: "conform/links.json",
        known: ["not_a_server_error | getAccount"],
        fixed: [],
        unseen: [],
        seed: 1,
      },
    };
    const html = htmlReport(report, (text) => text.replaceAll("SECRET-VALUE", "[redacted]"));
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; [redacted]");
    expect(html).toContain("curl &#39;http://127.0.0.1:1/api/account?a=1&amp;b=2&#39;");
    expect(html).toContain("known: not_a_server_error | getAccount");
    expect(html).toContain("no coverage section");
  });
});
