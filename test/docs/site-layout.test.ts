// The layout checks of the built reference (issue 45) run on the pages as the desktop (1440 px) and phone (390 px)
// checks visit them, one visit a page at each width (test/docs/support/page-layout.ts). Here:
// the word check itself sees a word the layout breaks, the reference pages hold every operation, and the
// conformance HTML report fits a phone's screen.
import { join } from "node:path";
import { tmpdir } from "node:os";
import { readFileSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { startLinksServer } from "../../conformance/fault-servers/links.js";
import { generatedPagePaths } from "../../scripts/docs/pages.js";
import { conformInProcess } from "../support/conform.js";
import { workerChromium } from "../support/chromium.js";
import { brokenWords, REFERENCE_OPERATIONS } from "./support/page-layout.js";

describe("no table cell breaks a word", () => {
  it("sees a word the layout breaks", async () => {
    const browser = await workerChromium();
    const page = await browser.newPage();
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

describe("the reference pages", () => {
  it("hold every operation", () => {
    const referencePages = new Set(generatedPagePaths().filter((path) => path.startsWith("/reference/")));
    expect(REFERENCE_OPERATIONS.filter((op) => !referencePages.has(op.path))).toEqual([]);
    expect(REFERENCE_OPERATIONS.length).toBeGreaterThan(20);
  });
});

describe("at 390 px nothing scrolls sideways", () => {
  it("the conformance HTML report", async () => {
    const server = await startLinksServer({ token: FAULT_SERVER_CREDENTIALS.LINKS_TOKEN, fault: "wrong-content-type" });
    const file = join(tmpdir(), `conform-html-phone-${process.pid}.html`);
    try {
      const args = ["--base-url", server.url, "--max-examples", "3", "--rate-limit", "1000/s", "--seed", "4"];
      const run = await conformInProcess(["links", ...args, "--operation", "getAccount", "--html", file], {
        ...FAULT_SERVER_CREDENTIALS,
      });
      expect(run.report.failures.length, run.output).toBeGreaterThan(0);
      const context = await (
        await workerChromium()
      ).newContext({
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
