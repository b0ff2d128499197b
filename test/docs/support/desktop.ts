// One page of the built site at desktop size (1440 px): it loads cleanly, and a reference page is laid out as a reader
// needs it (issue 45, on the same visit: page-layout.ts: no table wider than its column, no sample line cut or under
// its language label), its links collected; then every collected link followed the
// way a reader's click follows it. npm test opens a page of each kind (SAMPLE_PAGES, test/docs/site-pages.test.ts);
// the release proofs open every other one (test/release/site-pages.test.ts).
import type { ExpectStatic } from "vitest";
import { checkPageAt, type OpenSite } from "./built-site.js";
import { brokenWords, operationsNotBeside, tablesPastTheirColumn, unreadableSamples } from "./page-layout.js";
import { brokenLinks, type CollectedLinks } from "./site-browser.js";

export async function checkAtDesktopSize(
  site: OpenSite,
  path: string,
  expect: ExpectStatic,
  links: CollectedLinks,
): Promise<void> {
  await checkPageAt(site, path, "desktop", expect, {
    links,
    more: async (page) => {
      if (!path.startsWith("/reference/")) return;
      expect(await operationsNotBeside(page, path), "operations without their sample and console beside").toEqual([]);
      expect(await tablesPastTheirColumn(page), "tables wider than their column").toEqual([]);
      expect(await unreadableSamples(page), "request samples cut or under their label").toEqual([]);
      // Last: it opens every <details> of the page.
      expect(await brokenWords(page), "words broken in a table cell").toEqual([]);
    },
  });
}

/** Follows every collected link; none may end on the not-found page or miss its anchor (previous/next included). */
export async function expectNoBrokenLink(site: OpenSite, links: CollectedLinks, expect: ExpectStatic): Promise<void> {
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
}
