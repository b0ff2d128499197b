// The built docs site (test/docs/support/built-site.ts) in headless Chromium at desktop size (1440 px): exactly the
// expected pages, each loading cleanly (no console error, no failed request, no request leaving 127.0.0.1, diagrams
// shown, Redoc pages showing notes and samples), each reference page laid out as a reader needs it (issue 45, on the
// same visit: test/docs/support/page-layout.ts), and every link of the site (previous/next included) followed the
// way a reader's click follows it: none may end on the not-found page or miss its anchor. The phone size is
// site-phone.test.ts; the consoles, search and copy links are site-console.test.ts; the pages' content against the
// specs is site-content.test.ts.
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPageAt, expectedPages, useBuiltSite } from "./support/built-site.js";
import { brokenWords, operationsNotBeside } from "./support/page-layout.js";
import { brokenLinks, builtHtmlPages, type CollectedLinks } from "./support/site-browser.js";

const site = useBuiltSite();
/** Every link found on every page: href (resolved, same origin) to the pages it is on, with its target. */
const links: CollectedLinks = new Map();

describe("docs site pages", () => {
  it("has exactly the expected pages", () => {
    const built = builtHtmlPages(site.outDir)
      .map((file) => `/${relative(site.outDir, file)}`)
      .map((path) =>
        path.startsWith("/redoc/") ? path : path.replace(/(^|\/)index\.html$/, "$1").replace(/\.html$/, ""),
      )
      .sort();
    expect(built).toEqual(expectedPages());
  });

  describe.concurrent("every page in Chromium", () => {
    // Concurrent tests must use the `expect` of their own context.
    it.for(expectedPages())(
      "%s (desktop) loads cleanly and is laid out as a reader needs it",
      async (path, { expect }) => {
        await checkPageAt(site, path, "desktop", expect, {
          links,
          more: async (page) => {
            if (!path.startsWith("/reference/")) return;
            expect(await operationsNotBeside(page, path), "operations without their sample and console beside").toEqual(
              [],
            );
            // Last: it opens every <details> of the page.
            expect(await brokenWords(page), "words broken in a table cell").toEqual([]);
          },
        });
      },
    );
  });

  it("no link of the site ends on the not-found page or misses its anchor (previous/next included)", async () => {
    expect(links.size, "links collected from the pages").toBeGreaterThan(100);
    expect([...links.keys()].filter((href) => !href.includes("#")).length).toBeGreaterThan(10);
    // Four readers follow a share of the links each: the router's navigations mostly wait for the page to settle.
    const starts = await Promise.all([1, 2, 3, 4].map(() => site.visit("/guide/getting-started")));
    try {
      expect(
        await brokenLinks(
          starts.map((start) => start.page),
          site.url,
          links,
        ),
      ).toEqual([]);
      expect(starts.flatMap((start) => start.problems)).toEqual([]);
    } finally {
      await Promise.all(starts.map((start) => start.end()));
    }
  }, 300_000);

  it("the walk reports a path the router does not know, and a missing anchor of the page it opens next", async () => {
    const { page, problems, end } = await site.visit("/guide/getting-started");
    // The router changes the address before it renders the next page: with that page's code slow to come (held
    // back here), the not-found page is still shown at the new address, and must not be taken for the next page.
    const pageCode = /\/assets\/guide_pay\.md\.[\w-]+(\.lean)?\.js$/;
    await page.route(pageCode, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    try {
      const planted: CollectedLinks = new Map([
        [`${site.url}/guide/no-such-page`, { from: "/planted", target: "" }],
        [`${site.url}/guide/pay#no-such-anchor`, { from: "/planted", target: "" }],
      ]);
      expect(await brokenLinks([page], site.url, planted)).toEqual([
        "/guide/no-such-page (from /planted): PAGE NOT FOUND",
        `${site.url}/guide/pay#no-such-anchor (from /planted): no element #no-such-anchor`,
      ]);
      expect(problems).toEqual([]);
    } finally {
      await page.unroute(pageCode);
      await end();
    }
  });

  it("the previous/next links of the reference pages lead to reference pages", async () => {
    const { page, problems, end } = await site.visit("/reference/pay/gaps");
    try {
      const next = page.locator("a.pager-link.next");
      await next.click();
      await page.waitForLoadState("networkidle");
      expect(await page.locator(".NotFound").count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe("/changelog");
      expect(problems).toEqual([]);
    } finally {
      await end();
    }
  });
});
