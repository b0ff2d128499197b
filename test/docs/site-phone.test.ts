// The built docs site (test/docs/support/built-site.ts) in headless Chromium at phone size (390 px, mobile, touch):
// every page loads cleanly, and no table, code block or console is wider than the screen once every expandable part
// is open; the diagrams of the guides are shown.
import { describe, it } from "vitest";
import { DIAGRAM_PAGES, expectedPages, useBuiltSite } from "./support/built-site.js";
import { checkRedocPage, checkSitePage } from "./support/site-browser.js";

const site = useBuiltSite();

describe.concurrent("every page in Chromium at phone size", () => {
  // Concurrent tests must use the `expect` of their own context.
  it.for(expectedPages())("%s (phone) loads cleanly and fits the screen", async (path, { expect }) => {
    const { page, problems, end } = await site.visit(path, "phone");
    try {
      if (path.startsWith("/redoc/")) await checkRedocPage(page, site.url, path, expect);
      else
        await checkSitePage(page, {
          path,
          viewport: "phone",
          hasDiagrams: DIAGRAM_PAGES.has(path),
          siteUrl: site.url,
          expect,
        });
      expect(problems).toEqual([]);
    } finally {
      await end();
    }
  });
});
