// The docs site as the docs tests see it: built once per test run with VitePress, served on 127.0.0.1 and opened in
// headless Chromium at desktop and phone sizes. The test files that need it run in parallel workers; the first to
// ask builds the site into the run's directory (test/support/global-setup.ts provides it), the others wait for it.
import { execFile } from "node:child_process";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, type ExpectStatic } from "vitest";
import { generatedPagePaths, handWrittenPages } from "../../../scripts/docs/pages.js";
import { workerChromium } from "../../support/chromium.js";
import { oncePerRun } from "../../support/once-per-run.js";
import { repoRoot } from "../../support/processes.js";
import { freePort } from "../../support/ports.js";
import {
  checkRedocPage,
  checkSitePage,
  type CollectedLinks,
  type PageVisit,
  Tabs,
  type Viewport,
  VIEWPORTS,
  visit,
} from "./site-browser.js";
import { serveStatic } from "./static-server.js";

const BUILD_TIMEOUT_MS = 600_000;

/** The directory of the built site: built here, or by another test file of this run. */
export function builtSite(): Promise<string> {
  return oncePerRun(
    "docs-site",
    async (outDir) => {
      await promisify(execFile)(
        process.execPath,
        [join(repoRoot, "node_modules/vitepress/bin/vitepress.js"), "build", "docs", "--outDir", outDir],
        { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
      );
    },
    BUILD_TIMEOUT_MS,
  );
}

export interface OpenSite {
  outDir: string;
  url: string;
  contexts: Record<Viewport, BrowserContext>;
  /** Opens a page of the built site in a reused tab, recording console errors, failed requests and requests leaving
   * 127.0.0.1; `end()` the visit when done with it. */
  visit(path: string, viewport?: Viewport, allowedHosts?: string[]): Promise<PageVisit>;
  close(): Promise<void>;
}

/** The built site on a static server of its own and a Chromium with a desktop and a phone context. */
async function openBuiltSite(): Promise<OpenSite> {
  const outDir = await builtSite();
  const site = await serveStatic(outDir, await freePort());
  const browser = await workerChromium();
  const contexts = {
    desktop: await browser.newContext({ viewport: VIEWPORTS.desktop }),
    phone: await browser.newContext({ viewport: VIEWPORTS.phone, isMobile: true, hasTouch: true }),
  };
  const tabs = { desktop: new Tabs(contexts.desktop), phone: new Tabs(contexts.phone) };
  return {
    outDir,
    url: site.url,
    contexts,
    visit: (path, viewport = "desktop", allowedHosts = []) => visit(site.url, tabs[viewport], path, allowedHosts),
    async close() {
      await Promise.all([contexts.desktop.close(), contexts.phone.close()]);
      await site.close();
    },
  };
}

/** The built site for the tests of one file: filled in before they run (building it, or waiting for the build of
 * another file), closed after them. */
export function useBuiltSite(): OpenSite {
  const site = {} as OpenSite;
  beforeAll(async () => {
    Object.assign(site, await openBuiltSite());
  }, 600_000);
  afterAll(async () => {
    await site.close?.();
  });
  return site;
}

/** Guides whose diagrams (OIDC code + PKCE, issuance webhook, payment flow, the architecture) must be shown. */
export const DIAGRAM_PAGES = new Set(["/guide/identity", "/guide/catalog", "/guide/pay", "/guide/architecture"]);

/** A page of each kind, which npm test opens at each width (the release proofs open every other one): the home page,
 * a guide, every guide with a diagram, and of the generated pages an overview, an operations page, the schemas, the
 * gaps, the quirks and a Redoc page. */
export const SAMPLE_PAGES = [
  "/",
  "/guide/getting-started",
  ...DIAGRAM_PAGES,
  "/reference/links/",
  "/reference/catalog/products",
  "/reference/pay/schemas",
  "/reference/links/gaps",
  "/reference/links/quirks",
  "/redoc/pay.html",
];

/** Every page the site must have, as URL paths: the hand-written pages and the generated ones. */
export function expectedPages(): string[] {
  return [
    ...handWrittenPages().map(
      (file) =>
        `/${relative(join(repoRoot, "docs"), file)
          .replace(/(^|\/)index\.md$/, "$1")
          .replace(/\.md$/, "")}`,
    ),
    ...generatedPagePaths(),
  ].sort();
}

/** One page of the site at one width, as every page test checks it: it loads cleanly (a Redoc page with its notes
 * and samples, a site page with its title and diagrams, its links collected into `links`), then `more` checks what
 * the width adds, and nothing failed on the way (console errors, failed requests, requests leaving 127.0.0.1). */
export async function checkPageAt(
  site: OpenSite,
  path: string,
  viewport: Viewport,
  expect: ExpectStatic,
  options: { links?: CollectedLinks; more?: (page: Page) => Promise<void> } = {},
): Promise<void> {
  const { page, problems, end } = await site.visit(path, viewport);
  try {
    if (path.startsWith("/redoc/")) await checkRedocPage(page, site.url, path, expect);
    else
      await checkSitePage(page, {
        path,
        viewport,
        hasDiagrams: DIAGRAM_PAGES.has(path),
        siteUrl: site.url,
        links: options.links,
        expect,
      });
    await options.more?.(page);
    expect(problems).toEqual([]);
  } finally {
    await end();
  }
}
