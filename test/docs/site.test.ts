// Builds the docs site with VitePress, serves it on 127.0.0.1 and opens every page in headless Chromium at desktop
// and phone (390 px) sizes: no console error, no failed request, no request leaving 127.0.0.1, no table or code block
// wider than the phone's screen, diagrams shown. Every link of the site (previous/next included) is followed the way
// a reader's click follows it and must not end on the not-found page or miss its anchor. The console of an operation
// sends its call to a running sandbox (`contracts sandbox` on free ports) and shows the 200 response; search ranks
// operations above schemas; the copy-link button copies the operation's stable address. Then the built pages are
// checked against the specs (every operation's samples, notes, badges and anchors; every schema, quirk and gap).
// Screenshots of the home page, a guide and a reference page go to test/docs/screenshots/.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES, type ApiName } from "../../lib/contract/index.js";
import { installChromiumIfMissing, launchChromium } from "../../scripts/docs/chromium.js";
import { operationsOf, readBundle } from "../../scripts/docs/document.js";
import { notesOf } from "../../scripts/docs/operation-notes.js";
import { generatedPagePaths, handWrittenPages } from "../../scripts/docs/pages.js";
import { renderReferencePages } from "../../scripts/docs/reference-page.js";
import { readerBundle } from "../../scripts/docs/reader-bundle.js";
import { repoRoot, runContracts, type RunningCommand } from "../support/processes.js";
import { type BuiltApiPages, missingFromOperation, missingFromSite, operationSection } from "./support/coverage.js";
import {
  brokenLinks,
  builtHtmlPages,
  checkRedocPage,
  checkSitePage,
  type CollectedLinks,
  freePort,
  type PageVisit,
  type Viewport,
  VIEWPORTS,
  visit as visitPage,
} from "./support/site-browser.js";
import { serveStatic } from "./support/static-server.js";

const SCREENSHOTS = join(repoRoot, "test/docs/screenshots");
const outDir = mkdtempSync(join(tmpdir(), "contracts-docs-"));

/** Every page the site must have, as URL paths: the hand-written pages and the generated ones. */
const expectedPages = [
  ...handWrittenPages().map((file) => `/${relative(join(repoRoot, "docs"), file).replace(/(^|\/)index\.md$/, "$1").replace(/\.md$/, "")}`),
  ...generatedPagePaths(),
].sort();

let site: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;
const contexts = {} as Record<Viewport, BrowserContext>;
/** Guides whose diagrams (OIDC code + PKCE, issuance webhook, payment flow, the architecture) must be shown. */
const DIAGRAM_PAGES = new Set(["/guide/identity", "/guide/catalog", "/guide/pay", "/guide/architecture"]);
/** Every link found on every page: href (resolved, same origin) to the pages it is on, with its target. */
const links: CollectedLinks = new Map();

beforeAll(async () => {
  installChromiumIfMissing(); // the build renders the diagrams with it
  await promisify(execFile)(process.execPath, [join(repoRoot, "node_modules/vitepress/bin/vitepress.js"), "build", "docs", "--outDir", outDir], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  site = await serveStatic(outDir, await freePort());
  browser = await launchChromium();
  contexts.desktop = await browser.newContext({ viewport: VIEWPORTS.desktop });
  contexts.phone = await browser.newContext({ viewport: VIEWPORTS.phone, isMobile: true, hasTouch: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  rmSync(outDir, { recursive: true, force: true });
});

/** Opens a page of the built site, recording console errors, failed requests and requests leaving 127.0.0.1. */
const visit = (path: string, viewport: Viewport = "desktop", allowedHosts: string[] = []): Promise<PageVisit> =>
  visitPage(site.url, contexts[viewport], path, allowedHosts);

describe("docs site pages", () => {
  it("has exactly the expected pages", () => {
    const built = builtHtmlPages(outDir)
      .map((file) => `/${relative(outDir, file)}`)
      .map((path) => (path.startsWith("/redoc/") ? path : path.replace(/(^|\/)index\.html$/, "$1").replace(/\.html$/, "")))
      .sort();
    expect(built).toEqual(expectedPages);
  });

  describe.concurrent("every page in Chromium", () => {
    const cases = expectedPages.flatMap((path) => (["desktop", "phone"] as const).map((viewport) => [path, viewport] as const));
    // Concurrent tests must use the `expect` of their own context.
    it.for(cases)("%s (%s) loads cleanly and fits the screen", async ([path, viewport], { expect }) => {
      const { page, problems } = await visit(path, viewport);
      try {
        if (path.startsWith("/redoc/")) await checkRedocPage(page, site.url, path, expect);
        else await checkSitePage(page, { path, viewport, hasDiagrams: DIAGRAM_PAGES.has(path), siteUrl: site.url, links, expect });
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });
  });

  it("no link of the site ends on the not-found page or misses its anchor (previous/next included)", async () => {
    expect(links.size, "links collected from the pages").toBeGreaterThan(100);
    expect([...links.keys()].filter((href) => !href.includes("#")).length).toBeGreaterThan(10);
    const start = await visit("/guide/getting-started");
    try {
      expect(await brokenLinks(start.page, site.url, links)).toEqual([]);
      expect(start.problems).toEqual([]);
    } finally {
      await start.page.close();
    }
  }, 300_000);

  it("the previous/next links of the reference pages lead to reference pages", async () => {
    const { page, problems } = await visit("/reference/pay/gaps");
    try {
      const next = page.locator("a.pager-link.next");
      await next.click();
      await page.waitForLoadState("networkidle");
      expect(await page.locator(".NotFound").count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe("/changelog");
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

});

describe("the console of an operation against a running sandbox and mock", () => {
  let sandbox: RunningCommand;
  let mock: RunningCommand;
  const urls = { sandbox: {} as Record<ApiName, string>, mock: {} as Record<ApiName, string> };

  beforeAll(async () => {
    const ports = await Promise.all(API_NAMES.map(() => freePort()));
    sandbox = runContracts(["sandbox", ...API_NAMES.flatMap((api, i) => ["--port", `${api}=${ports[i]}`])]);
    API_NAMES.forEach((api, i) => (urls.sandbox[api] = `http://127.0.0.1:${ports[i]}`));
    const mockPort = await freePort();
    mock = runContracts(["mock", "--api", "links", "--port", `links=${mockPort}`]);
    urls.mock.links = `http://127.0.0.1:${mockPort}`;
    await sandbox.waitForOutput(new RegExp(String(ports[API_NAMES.indexOf("pay")])));
    await mock.waitForOutput(new RegExp(String(mockPort)));
  }, 60_000);

  afterAll(async () => {
    sandbox?.child.kill("SIGTERM");
    mock?.child.kill("SIGTERM");
    await Promise.all([sandbox?.exit, mock?.exit]);
  });

  it.each([
    ["sandbox", "identity", "/reference/identity/discovery", "getOpenIdConfiguration", /"issuer"/],
    ["sandbox", "links", "/reference/links/campaigns", "listCampaigns", /"campaigns"/],
    ["sandbox", "pay", "/reference/pay/balance", "getBalance", /"type": "success"/],
    ["sandbox", "pay", "/reference/pay/orders", "createOrder", /"url": "http/],
    ["mock", "links", "/reference/links/campaigns", "addCampaign", /"domain": "Spring Launch"/],
  ] as const)("%s, %s: %s#%s sends the call and shows the 200 response", async (target, api, path, operationId, expected) => {
    const base = urls[target][api];
    const { page, problems } = await visit(path, "desktop", [new URL(base).host]);
    try {
      const console = page.locator(`details.try-it[data-operation="${operationId}"]`);
      await console.locator("summary").first().click();
      await console.getByLabel(target === "mock" ? "Prism mock" : "Stateful sandbox").check();
      await console.locator("input.try-it-base").fill(base);
      await console.locator("button.try-it-send").click();
      await expect.poll(() => console.locator(".try-it-status").textContent().catch(() => ""), { timeout: 10_000 }).toMatch(/^200\b/);
      expect(await console.locator(".try-it-response").textContent()).toMatch(expected);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("docs site interactions", () => {
  it("search ranks an operation above the schemas named after it", async () => {
    const { page, problems } = await visit("/");
    try {
      await page.locator(".DocSearch-Button, .VPNavBarSearchButton").first().click();
      for (const [query, expected] of [
        ["createOrder", "/reference/pay/orders#createOrder"],
        ["addCampaign", "/reference/links/campaigns#addCampaign"],
        ["date_payed", "/reference/pay/"],
      ] as const) {
        await page.locator("#localsearch-input").fill(query);
        const first = page.locator(".VPLocalSearchBox .results a").first();
        await expect.poll(async () => (await first.getAttribute("href").catch(() => "")) ?? "", { timeout: 10_000 }).toContain(expected);
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("the copy-link button copies the operation's stable address", async () => {
    await contexts.desktop.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.url });
    const { page, problems } = await visit("/reference/pay/orders");
    try {
      await page.locator('button.copy-link[data-anchor="createOrder"]').click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${site.url}/reference/pay/orders#createOrder`);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("saves screenshots of the home page, a guide and a reference page", async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const [name, path, viewport] of [
      ["home", "/", "desktop"],
      ["guide-pay", "/guide/pay#the-payment-flow", "desktop"],
      ["reference-links", "/reference/links/campaigns#addCampaign", "desktop"],
      ["reference-pay-phone", "/reference/pay/orders#createOrder", "phone"],
    ] as const) {
      const { page } = await visit(path, viewport);
      try {
        await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
      } finally {
        await page.close();
      }
    }
    expect(readdirSync(SCREENSHOTS).sort()).toEqual(expect.arrayContaining(["guide-pay.png", "home.png", "reference-links.png", "reference-pay-phone.png"]));
  });
});

describe("the built site covers the specs", () => {
  const built = (api: ApiName): BuiltApiPages => {
    const dir = join(outDir, "reference", api);
    const reference = new Map<string, string>();
    for (const file of readdirSync(dir)) {
      const page = file.replace(/\.html$/, "");
      if (page !== "quirks" && page !== "gaps") reference.set(page, readFileSync(join(dir, file), "utf8"));
    }
    return { reference, quirks: readFileSync(join(dir, "quirks.html"), "utf8"), gaps: readFileSync(join(dir, "gaps.html"), "utf8") };
  };

  it.each(API_NAMES)("%s: every operation shows its samples, types, notes with badges and stable anchors; every schema, quirk and gap is on the site", (api) => {
    const doc = readBundle(api);
    expect(operationsOf(doc).length).toBeGreaterThan(0);
    expect(missingFromSite(api, doc, built(api))).toEqual([]);
  });

  it("reports an operation, schema, quirk, gap or assumption the site does not show", () => {
    const doc = structuredClone(readBundle("pay"));
    doc.paths!["/api/refund/"] = { post: { operationId: "refundOrder", tags: ["orders"], "x-quirk": "Refunds are a GET in disguise.", responses: {} } };
    doc.components!.schemas!.Refund = { type: "object", "x-undocumented": ["The refund window is not shown."] };
    (doc.components!.schemas!.CreatedOrder as Record<string, any>).properties.url["x-assumption"] = "We assume the payment link stays valid for an hour.";
    const assumptions = assumptionCount(doc, "createOrder");
    expect(missingFromSite("pay", doc, built("pay"))).toEqual([
      "createOrder: assumption (schema `CreatedOrder` › `url`): We assume the payment link stays valid for an hour.",
      `createOrder: badge "${assumptions} assumption" in the header`,
      expect.stringMatching(/^refundOrder: /),
      "schema Refund",
      "quirk on the quirks page: Refunds are a GET in disguise. (/paths/~1api~1refund~1/post)",
      "quirk on the reference pages: Refunds are a GET in disguise. (/paths/~1api~1refund~1/post)",
      "assumption on the reference pages: We assume the payment link stays valid for an hour. (/components/schemas/CreatedOrder/properties/url)",
      "gap on the gaps page: The refund window is not shown. (/components/schemas/Refund)",
      "gap on the reference pages: The refund window is not shown. (/components/schemas/Refund)",
      "assumption on the gaps page: We assume the payment link stays valid for an hour. (/components/schemas/CreatedOrder/properties/url)",
    ]);
  });

  it("shows an x-assumption at every operation it applies to, with a badge, on the site and in the Redoc copy", () => {
    const doc = structuredClone(readBundle("pay"));
    const sentence = "We assume the payment link stays valid for an hour.";
    (doc.components!.schemas!.CreatedOrder as Record<string, any>).properties.url["x-assumption"] = sentence;
    const markdown = renderReferencePages("pay", doc).get("orders")!;
    const section = operationSection(markdown.replace(/^## (\S+?):.*\{#(\w+)\}$/gm, '<h2 id="$2">$&</h2>'), "createOrder")!;
    expect(section).toContain(sentence);
    const assumptions = assumptionCount(doc, "createOrder");
    expect(section).toMatch(new RegExp(`data-kind="assumption">${assumptions} assumptions?<`));
    expect(operationSection(markdown.replace(/^## (\S+?):.*\{#(\w+)\}$/gm, '<h2 id="$2">$&</h2>'), "listOrders")).not.toContain(sentence);
    const redoc = operationsOf(readerBundle("pay", doc)).find((op) => op.operationId === "createOrder")!;
    expect(redoc.operation.description).toContain(`**Assumption** (schema \`CreatedOrder\` › \`url\`): ${sentence}`);
    // The check of the built pages sees it missing from the real site, which does not have it.
    expect(missingFromOperation("pay", doc, "createOrder", built("pay").reference.get("orders")!)).toContain(`createOrder: badge "${assumptions} assumption" in the header`);
  });

  it("pay: the signing test vector on the reference recomputes with WebCrypto", async () => {
    const html = built("pay").reference.get("index")!;
    const value = (name: string) => {
      const match = new RegExp(`data-vector="${name}">([^<]*)<`).exec(html);
      expect(match, name).not.toBeNull();
      return match![1]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<");
    };
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(value("key")), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = Buffer.from(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(value("body")))).toString("hex");
    expect(value("hmac")).toBe(mac);
    expect(value("header")).toBe(`Authorization: Bearer ${mac}`);
  });

  it("the changelog page is built from CHANGELOG.md", () => {
    const html = readFileSync(join(outDir, "changelog.html"), "utf8");
    const headings = [...readFileSync(join(repoRoot, "CHANGELOG.md"), "utf8").matchAll(/^##+ (.+)$/gm)].map((m) => m[1]!);
    expect(headings.length).toBeGreaterThan(0);
    for (const heading of headings) expect(html).toContain(heading);
  });
});

describe("pages naming operations by operationId", () => {
  it("the identity guide shows the paths of the operations it names by operationId, in its page and in the search index", () => {
    const userInfo = operationsOf(readBundle("identity")).find((o) => o.operationId === "getUserInfo")!.path;
    const guide = readFileSync(join(outDir, "guide/identity.html"), "utf8");
    expect(readFileSync(join(repoRoot, "docs/guide/identity.md"), "utf8")).toContain("[[op:getUserInfo]]");
    expect(guide).toContain(`http://127.0.0.1:4020${userInfo}`);
    expect(guide).not.toContain("[[op:");
    const searchIndex = readdirSync(join(outDir, "assets/chunks")).filter((file) => file.startsWith("@localSearchIndex"));
    expect(searchIndex.length).toBeGreaterThan(0);
    const indexText = searchIndex.map((file) => readFileSync(join(outDir, "assets/chunks", file), "utf8")).join("\n");
    // The index holds lower-cased terms per section id: the path's last segment must be a term of the guide's curl section.
    const curlSection = new RegExp(`"(\\d+)":"/guide/identity#curl"`).exec(indexText)?.[1];
    expect(curlSection).toBeDefined();
    const term = new RegExp(`\\["${userInfo.split("/").pop()!.toLowerCase()}",\\{[^\\]]*"${curlSection}":`);
    expect(indexText).toMatch(term);
    // Unreplaced, `[[op:getUserInfo]]` would index the term "op" in that section.
    expect(/\["op",\{[^\]]*\]/.exec(indexText)?.[0] ?? "").not.toContain(`"${curlSection}":`);
  });
});

/** How many assumptions the reference shows at one operation of a document (the spec's own ones and a fixture's). */
function assumptionCount(doc: ReturnType<typeof readBundle>, operationId: string): number {
  const op = operationsOf(doc).find((o) => o.operationId === operationId)!;
  return notesOf(doc, op).filter((note) => note.kind === "assumption").length;
}
