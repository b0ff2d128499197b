// The built docs site in headless Chromium, for test/docs/site-*.test.ts: opening a page while recording every console
// error, failed request and request that leaves 127.0.0.1; measuring what is wider than a phone's screen; checking
// one page; and following every link the way a reader's click does (through VitePress's client-side router).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, ConsoleMessage, Page, Request, Response } from "playwright-core";
import type { ExpectStatic } from "vitest";
import type { ApiName } from "../../../lib/contract/index.js";
import { operationsOf, readBundle } from "../../../scripts/docs/document.js";
import { notesOf } from "../../../scripts/docs/operation-notes.js";
import { WHOLE_API_NOTES } from "../../../scripts/docs/reader-bundle.js";

/** The desktop width is the one issue 45 names for the reference's two panes (test/docs/support/page-layout.ts). */
export const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
export type Viewport = keyof typeof VIEWPORTS;

/** The HTML pages of a built site (not its assets, not the 404 page), as absolute paths. */
export function builtHtmlPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "assets" ? [] : builtHtmlPages(path);
    return entry.name.endsWith(".html") && entry.name !== "404.html" ? [path] : [];
  });
}

export interface PageVisit {
  page: Page;
  problems: string[];
  /** Ends the visit: the tab stops being watched and goes back to its context's idle tabs. */
  end(): Promise<void>;
}

/** Same-origin links found on the pages: href to the page it was first seen on and its target. */
export type CollectedLinks = Map<string, { from: string; target: string }>;

/**
 * The tabs of one browser context, reused from visit to visit. A new tab starts a new renderer process, which
 * compiles the site's scripts again (nearly half of Chromium's CPU for a visit, measured alone). A returned tab is
 * sent to about:blank, so the next visit loads its page from scratch as a new tab would.
 */
export class Tabs {
  private readonly idle: Page[] = [];
  constructor(private readonly context: BrowserContext) {}

  async take(): Promise<Page> {
    return this.idle.pop() ?? (await this.context.newPage());
  }

  async give(page: Page): Promise<void> {
    const blank = await page.goto("about:blank").then(
      () => true,
      () => false,
    );
    if (blank) this.idle.push(page);
    else await page.close().catch(() => {});
  }
}

/** Records every console error, failed request and request that leaves the site's server, until `stop()`. */
function watch(page: Page, siteUrl: string, allowedHosts: string[]): { problems: string[]; stop(): void } {
  const problems: string[] = [];
  const siteHost = new URL(siteUrl).host;
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  };
  const onPageError = (error: Error) => problems.push(`uncaught: ${error.message}`);
  const onRequestFailed = (request: Request) =>
    problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`);
  const onResponse = (response: Response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  };
  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    const web = url.protocol === "http:" || url.protocol === "https:";
    if (web && url.hostname !== "127.0.0.1") problems.push(`left 127.0.0.1: ${request.url()}`);
    else if (web && url.host !== siteHost && !allowedHosts.includes(url.host))
      problems.push(`unexpected server: ${request.url()}`);
    else if (!["http:", "https:", "data:", "blob:"].includes(url.protocol))
      problems.push(`unexpected request: ${request.url()}`);
  };
  page
    .on("console", onConsole)
    .on("pageerror", onPageError)
    .on("requestfailed", onRequestFailed)
    .on("response", onResponse)
    .on("request", onRequest);
  return {
    problems,
    stop() {
      page
        .off("console", onConsole)
        .off("pageerror", onPageError)
        .off("requestfailed", onRequestFailed)
        .off("response", onResponse)
        .off("request", onRequest);
    },
  };
}

/** Opens a page of the site in a tab of a viewport's context, watching it. */
export async function visit(
  siteUrl: string,
  tabs: Tabs,
  path: string,
  allowedHosts: string[] = [],
): Promise<PageVisit> {
  const page = await tabs.take();
  const { problems, stop } = watch(page, siteUrl, allowedHosts);
  const end = async () => {
    stop();
    await tabs.give(page);
  };
  try {
    await page.goto(`${siteUrl}${path}`, { waitUntil: "networkidle" });
  } catch (error) {
    await end();
    throw error;
  }
  return { page, problems, end };
}

/** The elements of the page that reach past the screen's edges outside a box that scrolls them sideways (a table or a
 * code block may scroll in its own box, within the screen, but not take the page with it, nor be cut by it). */
export async function tooWide(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const screen = document.documentElement.clientWidth;
    const found: string[] = [];
    // Whether a box between `element` (itself excluded) and the page scrolls sideways.
    const scrolled = (element: HTMLElement): boolean => {
      for (let e = element.parentElement; e && e !== document.body; e = e.parentElement) {
        const { overflowX } = getComputedStyle(e);
        // (Not `hidden` or `clip`: what those boxes hide is cut, and the element is measured itself.)
        if (overflowX === "auto" || overflowX === "scroll") return true;
      }
      return false;
    };
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      if (element.getClientRects().length === 0) continue; // not shown (a closed <details>, another tab)
      if (getComputedStyle(element).visibility === "hidden") continue; // the closed menus of the navigation bar
      // The sidebar, closed, waits just off the screen's left edge; a screen reader's text is one pixel, clipped.
      if (element.closest(".VPSidebar:not(.open), .visually-hidden")) continue;
      const box = element.getBoundingClientRect();
      if (box.right <= screen + 1 && box.left >= -1) continue;
      if (scrolled(element)) continue;
      found.push(
        `${element.tagName.toLowerCase()}.${element.className} ${Math.round(box.left)}..${Math.round(box.right)}px: ` +
          (element.textContent ?? "").slice(0, 60),
      );
    }
    if (document.documentElement.scrollWidth > screen + 1)
      found.push(`the page scrolls sideways (${document.documentElement.scrollWidth}px)`);
    return found;
  });
}

/** Redoc shows one operation at a time: open one that has notes, which must show them and its samples. */
export async function checkRedocPage(page: Page, siteUrl: string, path: string, expect: ExpectStatic): Promise<void> {
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  const api = /^\/redoc\/(\w+)\.html$/.exec(path)![1] as ApiName;
  const doc = readBundle(api);
  // What the provider leaves undocumented for the whole API (on `info`, which Redoc does not render itself).
  await page.getByText(WHOLE_API_NOTES).first().waitFor({ timeout: 10_000 });
  for (const gap of doc.info["x-undocumented"] as string[]) {
    expect(
      await page.getByText(gap.replaceAll("`", "").trim()).count(),
      `a gap of the whole API: ${gap}`,
    ).toBeGreaterThan(0);
  }
  const op = operationsOf(doc).find((o) => !o.webhook && notesOf(doc, o).length > 0)!;
  await page.goto(`${siteUrl}${path}#/${op.operation.tags![0]}/${op.operationId.toLowerCase()}`, {
    waitUntil: "networkidle",
  });
  await page.getByText("Quirks, gaps and assumptions that apply here").first().waitFor({ timeout: 10_000 });
  expect(await page.getByText(notesOf(doc, op)[0]!.text.trim()).count(), "a note in Redoc").toBeGreaterThan(0);
  expect(await page.getByText("curl -X").count(), "the curl sample in Redoc").toBeGreaterThan(0);
}

/** A page of the site: a title, its diagrams decoded, nothing too wide on a phone; its links collected into `links`. */
export async function checkSitePage(
  page: Page,
  options: {
    path: string;
    viewport: Viewport;
    hasDiagrams: boolean;
    siteUrl: string;
    links?: CollectedLinks;
    expect: ExpectStatic;
  },
): Promise<void> {
  const { path, viewport, hasDiagrams, siteUrl, links, expect } = options;
  expect(await page.locator(".VPContent h1, .VPHero .name").count(), "page has a title").toBeGreaterThan(0);
  // Diagrams are images rendered at build time; the one for the current colour scheme must be shown.
  const diagrams = page.locator("figure.diagram img:visible");
  if (hasDiagrams) expect(await diagrams.count(), "diagrams").toBeGreaterThan(0);
  for (const image of await diagrams.all()) {
    expect(
      await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100),
      "diagram image decoded",
    ).toBe(true);
  }
  if (viewport === "phone") {
    // Open every expandable part (nested fields, examples, consoles) so that all of it is measured.
    await page.evaluate(() => document.querySelectorAll("details").forEach((details) => (details.open = true)));
    expect(await tooWide(page), "wider than 390 px").toEqual([]);
  }
  if (links) {
    const hrefs = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLAnchorElement>("a[href]")].map((a) => ({ href: a.href, target: a.target })),
    );
    for (const { href, target } of hrefs) {
      const url = new URL(href);
      if (url.origin === new URL(siteUrl).origin && !links.has(url.href)) links.set(url.href, { from: path, target });
    }
  }
}

/**
 * Follows one link path through the client-side router from an open page; undefined when it lands on a page. The
 * router changes the address first and renders the page after fetching it (or, for a path it does not know, after
 * fetching its page list again), so it is done when the page shown before (marked) is gone: the page then in place
 * is the one the link leads to, or the not-found page; a link to the page shown only moves to its anchor. (The load
 * state says nothing here: it was reached once, at the first load, and a router navigation does not reset it.)
 */
async function openThroughRouter(page: Page, path: string): Promise<string | undefined> {
  const expected = path.replace(/\.html$/, "");
  const samePage = await page.evaluate(
    ({ href, expected }) => {
      for (const shown of document.querySelectorAll(".VPContent .vp-doc > *, .VPContent .VPHome"))
        shown.setAttribute("data-shown-before", "");
      const a = document.createElement("a");
      a.href = href;
      document.querySelector(".VPContent")!.appendChild(a);
      const from = location.pathname;
      a.click();
      return from === expected;
    },
    { href: path, expected },
  );
  const arrived = await page
    .waitForFunction(
      // The new page, or the not-found one, has been rendered: between the old content's removal and the new
      // page's chunk (late on a busy machine) the content is empty, which is neither.
      ({ expected, samePage }) =>
        location.pathname === expected &&
        (samePage || !document.querySelector("[data-shown-before]")) &&
        document.querySelector(".NotFound, .VPContent h1, .VPHero .name") !== null,
      { expected, samePage },
      { timeout: 10_000 },
    )
    .then(
      () => true,
      () => false,
    );
  if (!arrived)
    return `the router showed neither it nor the not-found page within 10 s (the address is ${new URL(page.url()).pathname})`;
  return (await page.locator(".NotFound").count()) > 0 ? "PAGE NOT FOUND" : undefined;
}

/** The walk checks where links lead, not how the pages look (checkSitePage does): hidden, the pages the router
 * renders are not laid out, which was about half of Chromium's CPU for the walk. */
const hide = (page: Page) => page.addStyleTag({ content: "html { display: none !important }" });

/** Every collected link that ends on the not-found page, misses its anchor, or (a file) does not answer 200. The
 * paths are shared out among the open pages, each following its share through the router. */
export async function brokenLinks(starts: Page[], siteUrl: string, links: CollectedLinks): Promise<string[]> {
  const broken: string[] = [];
  const byPath = new Map<string, Array<{ href: string; from: string; target: string }>>();
  for (const [href, { from, target }] of links) {
    const key = new URL(href).pathname;
    byPath.set(key, [...(byPath.get(key) ?? []), { href, from, target }]);
  }
  const queue = [...byPath];
  const follow = async (start: Page) => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [path, entries] = next;
      if (/\.(json|html)$/.test(path) || entries.every((entry) => entry.target === "_blank")) {
        // Files the router does not handle (specs, the Redoc pages) open as themselves.
        const response = await fetch(`${siteUrl}${path}`);
        if (response.status !== 200) broken.push(`${path} (from ${entries[0]!.from}): HTTP ${response.status}`);
        continue;
      }
      const failure = await openThroughRouter(start, path);
      if (failure) {
        broken.push(`${path} (from ${entries[0]!.from}): ${failure}`);
        // The router changes the address before it renders the next page, and the not-found page is no content
        // openThroughRouter marks as old: the next path would be judged on it. A full load leaves it.
        await start.goto(`${siteUrl}/`, { waitUntil: "load" });
        await hide(start);
        continue;
      }
      for (const { href, from } of entries) {
        const hash = new URL(href).hash;
        if (!hash) continue;
        const id = decodeURIComponent(hash.slice(1));
        const found = await start
          .locator(`[id="${id}"]`)
          .first()
          .waitFor({ state: "attached", timeout: 5_000 })
          .then(
            () => true,
            () => false,
          );
        if (!found) broken.push(`${href} (from ${from}): no element #${id}`);
      }
    }
  };
  await Promise.all(starts.map(hide));
  await Promise.all(starts.map(follow));
  return broken.sort();
}
