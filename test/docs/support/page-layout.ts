// How the built site is laid out for a reader (issue 45), measured on a page that a site test has open: at 1440 px
// each operation's request sample and console sit beside its heading and stay in view while its responses are read;
// no table cell breaks a word (at 390 px too, guides included); a guide's diagrams are legible on a phone.
// The desktop and phone checks (desktop.ts, phone.ts) run these on the one visit they make of each page at each width.
import type { Page } from "playwright-core";
import { API_NAMES } from "../../../lib/contract/index.js";
import { operationPage, operationsOf, readBundle } from "../../../scripts/docs/document.js";
import { VIEWPORTS } from "./site-browser.js";

/** Where the right pane sticks (reference.css): below the site's 64 px bar, 16 px apart. */
const STICKY_TOP = 64 + 16;

/** Words (runs of letters, digits and `_`) of the cells of `tables` whose letters the browser laid out on more than one
 * line. Only a word of a token (text without spaces) wider than the line its table can give it is let off (a JWT, a
 * 46-letter field name on a phone cannot fit on one line). That line is measured on what holds the table, not on the
 * cell: a cell wrapped "anywhere" shrinks to a letter's width, every token is wider than it, and CONF|ORM_BASE_URL
 * passed. */
export async function brokenWords(page: Page, tables = ".vp-doc table"): Promise<string[]> {
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
      const holder = cell.closest("table")!.parentElement!;
      const room = holder.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
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
          const width = rects(token.index, token.index + token[0].length).reduce((sum, r) => sum + r.width, 0);
          // (Inline code adds its padding around the text.)
          if (width + 16 > room) continue;
          for (const word of token[0].matchAll(/[\p{L}\p{N}_]{2,}/gu)) {
            const start = token.index + word.index;
            const lines = new Set(rects(start, start + word[0].length).map((r) => Math.round(r.top)));
            if (lines.size > 1)
              broken.push(`"${word[0]}" in a cell of ${cell.closest("table")?.className || "a table"}`);
          }
        }
      }
    }
    return [...new Set(broken)];
  }, tables);
}

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

/** Every operation of the reference (webhooks have no console), with the path of its page. */
export const REFERENCE_OPERATIONS = API_NAMES.flatMap((api) =>
  operationsOf(readBundle(api))
    .filter((op) => !op.webhook)
    .map((op) => ({ operationId: op.operationId, path: `/reference/${api}/${operationPage(op)}` })),
);
/** The operations on the reference page at `path`. */
const operationsOn = (path: string): string[] =>
  REFERENCE_OPERATIONS.filter((op) => op.path === path).map((op) => op.operationId);

/** At 1440 px, with the heading of `operationId` where a reader's click on its link puts it, what is not in view. */
async function operationNotBeside(page: Page, operationId: string): Promise<string[]> {
  await page.evaluate((id) => {
    document.getElementById(id)!.scrollIntoView({ block: "start" });
    window.scrollBy(0, -96);
  }, operationId);
  const inView = (box: Box | null) => box !== null && box.top >= 0 && box.bottom <= VIEWPORTS.desktop.height;
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

/** At 1440 px, what of the operations of the reference page open in `page` is not beside its heading, or scrolls away
 * with its responses. */
export async function operationsNotBeside(page: Page, path: string): Promise<string[]> {
  const notBeside: string[] = [];
  for (const operationId of operationsOn(path)) notBeside.push(...(await operationNotBeside(page, operationId)));
  return notBeside;
}

/** The guide's diagrams shown in `page` (at 390 px): the scale of each drawing and where its figure ends. */
export async function shownDiagrams(page: Page): Promise<Array<{ scale: number; figureRight: number }>> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLImageElement>("figure.diagram img")]
      .filter((img) => img.getClientRects().length > 0)
      .map((img) => ({
        // The drawing's own width (mermaid draws its labels at 16 px in it) against the width shown.
        scale: img.getBoundingClientRect().width / Number(img.getAttribute("width")),
        figureRight: img.closest("figure")!.getBoundingClientRect().right,
      })),
  );
}

/** At 1440 px, what of the request samples open in `page` a reader cannot read whole: a code line that runs past the
 * edge of its block with no box inside the block to scroll it (cut), or a language label ("sh", "ts") over the first
 * line of code. Each tab of a code group is clicked in turn, as a reader shows it. */
export async function unreadableSamples(page: Page): Promise<string[]> {
  const found: string[] = [];
  const groups = page.locator(".vp-doc .vp-code-group");
  for (let g = 0; g < (await groups.count()); g++) {
    const tabs = groups.nth(g).locator(".tabs label");
    for (let t = 0; t < (await tabs.count()); t++) {
      await tabs.nth(t).click();
      found.push(
        ...(await groups.nth(g).evaluate((group) => {
          const block = [...group.querySelectorAll<HTMLElement>("div[class*='language-']")].find(
            (e) => e.getClientRects().length > 0,
          );
          if (!block) return ["a tab of a code group shows no code"];
          const operation = group.closest(".operation")?.querySelector("h2")?.id ?? "a code group";
          const where = `${operation} (${block.className})`;
          const problems: string[] = [];
          // What the block shows of a line: up to its own edge, unless a box inside it scrolls the line sideways.
          const edge = block.getBoundingClientRect().right;
          const scrolled = (line: Element) => {
            for (let e = line.parentElement; e && e !== block; e = e.parentElement) {
              const { overflowX } = getComputedStyle(e);
              if (overflowX === "auto" || overflowX === "scroll") return true;
            }
            return false;
          };
          const lines = [...block.querySelectorAll("pre .line")];
          for (const line of lines) {
            const range = document.createRange();
            range.selectNodeContents(line);
            const right = Math.max(...[...range.getClientRects()].map((r) => r.right));
            if (right > edge + 1 && !scrolled(line))
              problems.push(`${where}: a line cut ${Math.round(right - edge)} px: ${line.textContent?.slice(0, 60)}`);
          }
          const label = block.querySelector(":scope > span.lang")?.getBoundingClientRect();
          if (label && lines[0]) {
            const range = document.createRange();
            range.selectNodeContents(lines[0]);
            const code = range.getBoundingClientRect();
            const apart =
              label.right <= code.left ||
              code.right <= label.left ||
              label.bottom <= code.top ||
              code.bottom <= label.top;
            if (!apart)
              problems.push(
                `${where}: the label "${block.querySelector("span.lang")!.textContent}" is over the first line`,
              );
          }
          return problems;
        })),
      );
    }
  }
  return found;
}

/** At 1440 px, the tables of `page` wider than the column they are in (the left or right pane of an operation, or the
 * page's text) that no box within that column scrolls. */
export async function tablesPastTheirColumn(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const table of document.querySelectorAll<HTMLElement>(".vp-doc table")) {
      if (table.getClientRects().length === 0) continue;
      const column = table.parentElement!.closest<HTMLElement>(".operation-main, .operation-aside, .vp-doc")!;
      let shown: HTMLElement = table;
      for (let e: HTMLElement | null = table; e && e !== column; e = e.parentElement) {
        const { overflowX } = getComputedStyle(e);
        if (overflowX === "auto" || overflowX === "scroll") shown = e;
      }
      const box = shown.getBoundingClientRect();
      const room = column.getBoundingClientRect();
      if (box.right > room.right + 1 || box.left < room.left - 1)
        found.push(
          `table.${table.className} ${Math.round(box.width)} px in a column of ${Math.round(room.width)} px: ` +
            (table.textContent ?? "").trim().slice(0, 60),
        );
    }
    return found;
  });
}
