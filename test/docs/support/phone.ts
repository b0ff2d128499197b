// One page of the built site at phone size (390 px, mobile, touch): it loads cleanly, no element reaches past the
// screen's edges outside a box that scrolls it once every expandable part is open (tooWide), no table cell breaks a
// word (brokenWords), and the diagrams of the guides are shown at a size whose labels can be read, scrolling inside
// their own box (issue 45: page-layout.ts). npm test opens a page of each kind (SAMPLE_PAGES,
// test/docs/site-phone.test.ts); the release proofs open every other one (test/release/site-phone.test.ts).
import type { ExpectStatic } from "vitest";
import { checkPageAt, DIAGRAM_PAGES, type OpenSite } from "./built-site.js";
import { brokenWords, shownDiagrams } from "./page-layout.js";
import { VIEWPORTS } from "./site-browser.js";

export async function checkAtPhoneSize(site: OpenSite, path: string, expect: ExpectStatic): Promise<void> {
  await checkPageAt(site, path, "phone", expect, {
    more: async (page) => {
      // Every table of every page, guides included: the generated tables become cards whose words stay whole, a
      // markdown table scrolls in its own box (tooWide, in checkPageAt, holds that box within the screen).
      expect(await brokenWords(page), "words broken in a table cell").toEqual([]);
      if (!DIAGRAM_PAGES.has(path)) return;
      const diagrams = await shownDiagrams(page);
      expect(diagrams.length).toBeGreaterThan(0);
      for (const diagram of diagrams) {
        expect(diagram.scale, "labels at 12 px or more").toBeGreaterThanOrEqual(0.75);
        expect(diagram.figureRight, "the figure within the screen").toBeLessThanOrEqual(VIEWPORTS.phone.width + 1);
      }
    },
  });
}
