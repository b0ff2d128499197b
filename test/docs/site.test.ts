// Builds the docs site with VitePress, serves it on 127.0.0.1 and opens every page in headless Chromium: no console
// error, no failed request, no request leaving 127.0.0.1, every operationId on its API's reference page, diagrams
// shown, search finding generated pages. Then checks that the built site shows every operation, schema, quirk and
// gap of the specs. Screenshots of the home page, a guide and a reference page go to test/docs/screenshots/.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES, type ApiName } from "../../lib/openapi.js";
import { operationsOf, readBundle } from "../../scripts/docs/document.js";
import { handWrittenPages } from "../../scripts/docs/pages.js";
import { repoRoot } from "../support/processes.js";
import { installChromiumIfMissing, launchChromium } from "../../scripts/docs/chromium.js";
import { type BuiltApiPages, missingFromSite } from "./support/coverage.js";
import { serveStatic } from "./support/static-server.js";

const PORT = 4300;
const SCREENSHOTS = join(repoRoot, "test/docs/screenshots");
const outDir = mkdtempSync(join(tmpdir(), "contracts-docs-"));

/** Every page the site must have, as URL paths: the hand-written pages and, per API, the generated ones. */
const expectedPages = [
  ...handWrittenPages().map((file) => `/${relative(join(repoRoot, "docs"), file).replace(/(^|\/)index\.md$/, "$1").replace(/\.md$/, "")}`),
  ...API_NAMES.flatMap((api) => [`/reference/${api}/`, `/reference/${api}/quirks`, `/reference/${api}/gaps`, `/redoc/${api}.html`]),
].sort();

let site: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;
let context: BrowserContext;
/** Guides whose flow diagrams (OIDC code + PKCE, issuance webhook, payment flow) must be shown. */
const DIAGRAM_PAGES = new Set(["/guide/identity", "/guide/catalog", "/guide/pay"]);

beforeAll(async () => {
  installChromiumIfMissing(); // the build renders the diagrams with it
  await promisify(execFile)(process.execPath, [join(repoRoot, "node_modules/vitepress/bin/vitepress.js"), "build", "docs", "--outDir", outDir], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  site = await serveStatic(outDir, PORT);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  rmSync(outDir, { recursive: true, force: true });
});

function builtHtmlPages(dir = outDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "assets" ? [] : builtHtmlPages(path);
    return entry.name.endsWith(".html") && entry.name !== "404.html" ? [path] : [];
  });
}

interface PageVisit {
  page: Page;
  problems: string[];
}

/** Opens a page and records every console error, failed request and request that leaves the site. */
async function visit(path: string): Promise<PageVisit> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on("request", (request) => {
    const url = new URL(request.url());
    if ((url.protocol === "http:" || url.protocol === "https:") && url.host !== `127.0.0.1:${PORT}`) problems.push(`left 127.0.0.1: ${request.url()}`);
    else if (!["http:", "https:", "data:", "blob:"].includes(url.protocol)) problems.push(`unexpected request: ${request.url()}`);
  });
  await page.goto(`${site.url}${path}`, { waitUntil: "networkidle" });
  return { page, problems };
}

describe("docs site", () => {
  it("has exactly the expected pages", () => {
    const built = builtHtmlPages()
      .map((file) => `/${relative(outDir, file)}`)
      .map((path) => (path.startsWith("/redoc/") ? path : path.replace(/(^|\/)index\.html$/, "$1").replace(/\.html$/, "")))
      .sort();
    expect(built).toEqual(expectedPages);
  });

  describe.concurrent("every page in Chromium", () => {
    // Concurrent tests must use the `expect` of their own context.
    it.for(expectedPages)("%s loads with no error, no failed request and no request leaving 127.0.0.1", async (path, { expect }) => {
      const { page, problems } = await visit(path);
      try {
        if (path.startsWith("/redoc/")) {
          await page.getByRole("heading", { level: 1 }).first().waitFor();
        } else {
          expect(await page.locator(".VPContent h1, .VPHero .name").count(), "page has a title").toBeGreaterThan(0);
          // Diagrams are images rendered at build time; the one for the current colour scheme must be shown.
          const diagrams = page.locator("figure.diagram img:visible");
          if (DIAGRAM_PAGES.has(path)) expect(await diagrams.count(), "flow diagrams").toBeGreaterThan(0);
          for (const image of await diagrams.all()) {
            expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100), "diagram image decoded").toBe(true);
          }
        }
        const api = /^\/reference\/(\w+)\/$/.exec(path)?.[1] as ApiName | undefined;
        if (api) {
          const text = await page.locator(".VPContent").innerText();
          for (const op of operationsOf(readBundle(api))) {
            expect(text, op.operationId).toContain(op.operationId);
            expect(await page.locator(`[id="${op.operationId}"]`).count(), `#${op.operationId}`).toBe(1);
          }
        }
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });
  });

  it("local search finds generated reference content", async () => {
    const { page, problems } = await visit("/");
    try {
      await page.locator(".DocSearch-Button, .VPNavBarSearchButton").first().click();
      await page.locator("#localsearch-input").fill("date_payed");
      const hit = page.locator(".VPLocalSearchBox a[href*='/reference/pay/']").first();
      await hit.waitFor({ timeout: 10_000 });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("saves screenshots of the home page, a guide and a reference page", async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const [name, path] of [
      ["home", "/"],
      ["guide-pay", "/guide/pay#the-payment-flow"],
      ["reference-links", "/reference/links/#addCampaign"],
    ] as const) {
      const { page } = await visit(path);
      try {
        await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
      } finally {
        await page.close();
      }
    }
    expect(readdirSync(SCREENSHOTS).sort()).toEqual(expect.arrayContaining(["guide-pay.png", "home.png", "reference-links.png"]));
  });
});

describe("the built site covers the specs", () => {
  const built = (api: string): BuiltApiPages => ({
    reference: readFileSync(join(outDir, "reference", api, "index.html"), "utf8"),
    quirks: readFileSync(join(outDir, "reference", api, "quirks.html"), "utf8"),
    gaps: readFileSync(join(outDir, "reference", api, "gaps.html"), "utf8"),
  });

  it.each(API_NAMES)("%s: every operation, webhook, schema, quirk and gap is on the site", (api) => {
    expect(missingFromSite(readBundle(api), built(api))).toEqual([]);
  });

  it("reports an operation, schema, quirk or gap the site does not show", () => {
    const doc = structuredClone(readBundle("pay"));
    doc.paths!["/api/refund/"] = { post: { operationId: "refundOrder", "x-quirk": "Refunds are a GET in disguise." } };
    doc.components!.schemas!.Refund = { type: "object", "x-undocumented": ["The refund window is not shown."] };
    expect(missingFromSite(doc, built("pay"))).toEqual([
      "operation refundOrder",
      "schema Refund",
      "quirk on the quirks page: Refunds are a GET in disguise. (/paths/~1api~1refund~1/post)",
      "quirk on the reference page: Refunds are a GET in disguise. (/paths/~1api~1refund~1/post)",
      "gap on the gaps page: The refund window is not shown. (/components/schemas/Refund)",
      "gap on the reference page: The refund window is not shown. (/components/schemas/Refund)",
    ]);
  });
});
