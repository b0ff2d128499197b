// The layout of the built reference in headless Chromium, as a reader sees it (issue 45): no table cell breaks a
// word at desktop width (1440 px), nor a cell of the generated tables at phone width (390 px); at 1440 px every
// operation shows its request sample and its console beside its heading without scrolling, and they stay in view
// (sticky) while its responses are read; at 390 px nothing scrolls sideways, the guides' diagrams are shown at a
// size whose labels can be read (scrolling inside their own box), and the conformance HTML report fits the screen.
import { join } from "node:path";
import { tmpdir } from "node:os";
import { readFileSync, rmSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { startLinksServer } from "../../conformance/fault-servers/links.js";
import { API_NAMES } from "../../lib/contract/index.js";
import { operationPage, operationsOf, readBundle } from "../../scripts/docs/document.js";
import { generatedPagePaths } from "../../scripts/docs/pages.js";
import { conformInProcess } from "../support/conform.js";
import { DIAGRAM_PAGES, useBuiltSite } from "./support/built-site.js";
import { tooWide } from "./support/site-browser.js";

const site = useBuiltSite();
const WIDE = { width: 1440, height: 900 };
/** Where the right pane sticks (reference.css): below the site's 64 px bar, 16 px apart. */
const STICKY_TOP = 64 + 16;
let wide: BrowserContext;
beforeAll(async () => {
  // The suite's desktop context is 1280 px wide; the two panes are checked at the width the issue names.
  wide = await site.contexts.desktop.browser()!.newContext({ viewport: WIDE });
}, 600_000);
afterAll(async () => {
  await wide?.close();
});

const referencePages = generatedPagePaths().filter((path) => path.startsWith("/reference/"));

/** Words (runs of letters, digits and `_`) of the cells of `tables` that the browser laid out on more than one line. */
async function brokenWords(page: Page, tables = ".vp-doc table"): Promise<string[]> {
  await page.evaluate(() => document.querySelectorAll("details").forEach((details) => (details.open = true)));
  return page.evaluate((tables) => {
    const broken: string[] = [];
    const cells = tables
      .split(",")
      .map((table) => `${table} th, ${table} td`)
      .join(",");
    for (const cell of document.querySelectorAll<HTMLElement>(cells)) {
      if (cell.getClientRects().length === 0) continue;
      const style = getComputedStyle(cell);
      const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        // Text of a nested table is measured with that table's own cells.
        if (node.parentElement?.closest("td, th") !== cell) continue;
        const text = node.textContent ?? "";
        const rects = (start: number, end: number) => {
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, end);
          return [...range.getClientRects()].filter((r) => r.width > 0);
        };
        for (const token of text.matchAll(/\S+/g)) {
          // A token wider than the cell (a JWT, a 46-letter field name on a phone) has to wrap somewhere.
          const width = rects(token.index, token.index + token[0].length).reduce((sum, r) => sum + r.width, 0);
          // (Inline code adds its padding around the text.)
          if (width + 16 > room) continue;
          for (const word of token[0].matchAll(/[\p{L}\p{N}_]{2,}/gu)) {
            const start = token.index + word.index;
            const tops = new Set(rects(start, start + word[0].length).map((r) => Math.round(r.top)));
            if (tops.size > 1)
              broken.push(`"${word[0]}" in a cell of ${cell.closest("table")?.className || "a table"}`);
          }
        }
      }
    }
    return [...new Set(broken)];
  }, tables);
}

/** On a phone the generated tables become cards whose words stay whole; a markdown table (a guide's, the servers of
 * an overview) has no room for that and may wrap a long word rather than run past the screen. */
const GENERATED_TABLES = ".vp-doc table.fields, .vp-doc table.errors, .vp-doc table.operations-index";

describe("no table cell breaks a word", () => {
  it("sees a word the layout breaks", async () => {
    const page = await wide.newPage();
    try {
      await page.setContent(
        // In a monospace font each "Required" is 8 characters wide and fits the cell alone, but break-all splits
        // the second one over two lines, whatever the machine's fonts measure.
        `<div class="vp-doc"><table style="width: 14ch; font: 16px monospace; word-break: break-all">` +
          `<tr><td>Required Required</td></tr></table></div>`,
      );
      expect((await brokenWords(page)).join()).toMatch(/"Required"/);
    } finally {
      await page.close();
    }
  });
});

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Where the heading, the first request sample and the console of an operation are, with its anchor at the top. */
async function operationBoxes(
  page: Page,
  operationId: string,
): Promise<{ heading: Box | null; sample: Box | null; console: Box | null; aside: Box | null }> {
  return page.evaluate((id) => {
    const box = (element: Element | null | undefined): Box | null => {
      if (!element || element.getClientRects().length === 0) return null;
      const { top, bottom, left, right } = element.getBoundingClientRect();
      return { top, bottom, left, right };
    };
    const heading = document.getElementById(id);
    const operation = heading?.closest(".operation");
    return {
      heading: box(heading),
      sample: box(
        [...(operation?.querySelectorAll(".operation-aside div[class*='language-']") ?? [])].find(
          (e) => e.getClientRects().length > 0,
        ),
      ),
      console: box(operation?.querySelector(".try-it > summary")),
      aside: box(operation?.querySelector(".operation-aside")),
    };
  }, operationId);
}

const operations = API_NAMES.flatMap((api) =>
  operationsOf(readBundle(api))
    .filter((op) => !op.webhook)
    .map((op) => ({ operationId: op.operationId, path: `/reference/${api}/${operationPage(op)}` })),
);
/** The operations of each reference page, by the page's path. */
const operationsByPage = new Map<string, string[]>(referencePages.map((path) => [path, []]));
for (const { operationId, path } of operations) operationsByPage.get(path)?.push(operationId);

/** At 1440 px, with the heading of `operationId` where a reader's click on its link puts it, what is not in view. */
async function operationNotBeside(page: Page, operationId: string): Promise<string[]> {
  await page.evaluate((id) => {
    document.getElementById(id)!.scrollIntoView({ block: "start" });
    window.scrollBy(0, -96);
  }, operationId);
  const inView = (box: Box | null) => box !== null && box.top >= 0 && box.bottom <= WIDE.height;
  const { heading, sample, console, aside } = await operationBoxes(page, operationId);
  const missing = [
    ...(inView(heading) ? [] : [`heading ${JSON.stringify(heading)}`]),
    ...(inView(sample) ? [] : [`request sample ${JSON.stringify(sample)}`]),
    ...(inView(console) ? [] : [`console ${JSON.stringify(console)}`]),
  ];
  if (missing.length > 0) return missing.map((what) => `${operationId}: ${what} not in view`);
  // Beside it, not below it: to its right, the right pane starting no lower than the heading (or, once the heading
  // is scrolled up to the site's bar, held by `position: sticky` just below that bar).
  if (sample!.left < heading!.right) missing.push(`${operationId}: the request sample is below the heading`);
  if (aside!.top > Math.max(heading!.bottom, STICKY_TOP)) missing.push(`${operationId}: the right pane starts lower`);
  // Sticky: with the operation's responses scrolled to, the sample and the console are still in view.
  await page.locator(`[id="${operationId}-responses"]`).evaluate((element) => {
    element.scrollIntoView({ block: "start" });
  });
  const later = await operationBoxes(page, operationId);
  if (later.heading!.top < 0) {
    if (!inView(later.sample)) missing.push(`${operationId}: the request sample scrolls away with the responses`);
    if (!inView(later.console)) missing.push(`${operationId}: the console scrolls away with the responses`);
  }
  return missing;
}

// Each reference page is loaded once per width (Chromium's layout of a page is most of these tests' CPU), and the
// pages load concurrently, each in a tab of its own: a page mostly waits for its network to idle.
describe.concurrent("each reference page at 1440 and 390 px", () => {
  it.for(referencePages)(
    "%s: no table cell breaks a word; at 1440 px each operation's request sample and console sit beside its heading",
    async (path, { expect }) => {
      const desktop = await wide.newPage();
      try {
        await desktop.goto(`${site.url}${path}`, { waitUntil: "networkidle" });
        const notBeside: string[] = [];
        for (const operationId of operationsByPage.get(path)!)
          notBeside.push(...(await operationNotBeside(desktop, operationId)));
        expect(notBeside).toEqual([]);
        // Last: it opens every <details> of the page.
        expect(await brokenWords(desktop), "at 1440 px").toEqual([]);
      } finally {
        await desktop.close();
      }
      const { page, end } = await site.visit(path, "phone");
      try {
        expect(await brokenWords(page, GENERATED_TABLES), "at 390 px").toEqual([]);
      } finally {
        await end();
      }
    },
  );

  it("every operation is on a reference page", ({ expect }) => {
    expect([...operationsByPage.values()].flat().sort()).toEqual(operations.map((op) => op.operationId).sort());
  });
});

describe("at 390 px nothing scrolls sideways", () => {
  it.for([...DIAGRAM_PAGES])(
    "%s: its diagrams are legible and scroll inside their own box",
    async (path, { expect }) => {
      const { page, end } = await site.visit(path, "phone");
      try {
        const diagrams = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>("figure.diagram img")]
            .filter((img) => img.getClientRects().length > 0)
            .map((img) => ({
              // The drawing's own width (mermaid draws its labels at 16 px in it) against the width shown.
              scale: img.getBoundingClientRect().width / Number(img.getAttribute("width")),
              figureRight: img.closest("figure")!.getBoundingClientRect().right,
            })),
        );
        expect(diagrams.length).toBeGreaterThan(0);
        for (const diagram of diagrams) {
          expect(diagram.scale, "labels at 12 px or more").toBeGreaterThanOrEqual(0.75);
          expect(diagram.figureRight).toBeLessThanOrEqual(390 + 1);
        }
        expect(await tooWide(page)).toEqual([]);
      } finally {
        await end();
      }
    },
  );

  it("the conformance HTML report", async () => {
    const server = await startLinksServer({ token: FAULT_SERVER_CREDENTIALS.LINKS_TOKEN, fault: "wrong-content-type" });
    const file = join(tmpdir(), `conform-html-phone-${process.pid}.html`);
    try {
      const args = ["--base-url", server.url, "--max-examples", "3", "--rate-limit", "1000/s", "--seed", "4"];
      const run = await conformInProcess(["links", ...args, "--operation", "getAccount", "--html", file], {
        ...FAULT_SERVER_CREDENTIALS,
      });
      expect(run.report.failures.length, run.output).toBeGreaterThan(0);
      const context = await site.contexts.phone.browser()!.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        javaScriptEnabled: false,
      });
      const page = await context.newPage();
      await page.setContent(readFileSync(file, "utf8"), { waitUntil: "load" });
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        screen: document.documentElement.clientWidth,
      }));
      await context.close();
      expect(widths.page, "the report scrolls sideways").toBeLessThanOrEqual(widths.screen + 1);
    } finally {
      rmSync(file, { force: true });
      await server.close();
    }
  });
});
