// The built docs site (test/docs/support/built-site.ts) in headless Chromium at desktop size (1440 px): exactly the
// expected pages; a page of each kind loading cleanly (no console error, no failed request, no request leaving
// 127.0.0.1, diagrams shown, Redoc pages showing notes and samples), each reference page laid out as a reader needs it
// (issue 45, on the same visit), as test/docs/support/desktop.ts checks it; and every link on those pages (the
// sidebar's and the navigation bar's lead to every page, previous/next included) followed the way a reader's click
// follows it: none may end on the not-found page or miss its anchor. Every other page is a release proof
// (test/release/site-pages.test.ts). The phone size is site-phone.test.ts; the consoles, search and copy links are
// site-console.test.ts; the pages' content against the specs is site-content.test.ts.
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { expectedPages, SAMPLE_PAGES, useBuiltSite } from "./support/built-site.js";
import { checkAtDesktopSize, expectNoBrokenLink } from "./support/desktop.js";
import { brokenLinks, builtHtmlPages, type CollectedLinks } from "./support/site-browser.js";

const site = useBuiltSite();
/** Every link found on the pages opened: href (resolved, same origin) to the page it is on, with its target. */
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

  it("the pages of each kind are pages of the site", () => {
    expect(expectedPages()).toEqual(expect.arrayContaining(SAMPLE_PAGES));
  });

  describe.concurrent("a page of each kind in Chromium", () => {
    // Concurrent tests must use the `expect` of their own context.
    it.for(SAMPLE_PAGES)("%s (desktop) loads cleanly and is laid out as a reader needs it", (path, c) =>
      checkAtDesktopSize(site, path, c.expect, links),
    );
  });

  it("no link on those pages ends on the not-found page or misses its anchor (previous/next included)", async () => {
    await expectNoBrokenLink(site, links, expect);
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
