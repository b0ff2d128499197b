// The built docs site (test/docs/support/built-site.ts) in headless Chromium at phone size (390 px, mobile, touch):
// every page loads cleanly, and no table, code block or console is wider than the screen once every expandable part
// is open; no cell of the generated tables breaks a word; the diagrams of the guides are shown at a size whose
// labels can be read, scrolling inside their own box (issue 45: test/docs/support/page-layout.ts).
import { describe, it } from "vitest";
import { checkPageAt, DIAGRAM_PAGES, expectedPages, useBuiltSite } from "./support/built-site.js";
import { brokenWords, GENERATED_TABLES, shownDiagrams } from "./support/page-layout.js";
import { VIEWPORTS } from "./support/site-browser.js";

const site = useBuiltSite();

describe.concurrent("every page in Chromium at phone size", () => {
  // Concurrent tests must use the `expect` of their own context.
  it.for(expectedPages())(
    "%s (phone) loads cleanly, fits the screen and breaks no word of a generated table",
    async (path, { expect }) => {
      await checkPageAt(site, path, "phone", expect, {
        more: async (page) => {
          // A markdown table (a guide's, the servers of an overview) has no room for whole words on a phone and may
          // wrap a long one rather than run past the screen; the generated tables become cards whose words stay whole.
          expect(await brokenWords(page, GENERATED_TABLES), "words broken in a generated table").toEqual([]);
          if (!DIAGRAM_PAGES.has(path)) return;
          const diagrams = await shownDiagrams(page);
          expect(diagrams.length).toBeGreaterThan(0);
          for (const diagram of diagrams) {
            expect(diagram.scale, "labels at 12 px or more").toBeGreaterThanOrEqual(0.75);
            expect(diagram.figureRight, "the figure within the screen").toBeLessThanOrEqual(VIEWPORTS.phone.width + 1);
          }
        },
      });
    },
  );
});
