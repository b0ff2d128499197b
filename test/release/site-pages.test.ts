// The built docs site at desktop size, every page npm test does not open (test/docs/site-pages.test.ts opens a page of
// each kind), as test/docs/support/desktop.ts checks it, and every link on those pages followed. Like everything under
// test/release/, it runs where releases are proven: in CI (CI=true) and with `npm run test:release`.
import { describe, it } from "vitest";
import { expectedPages, SAMPLE_PAGES, useBuiltSite } from "../docs/support/built-site.js";
import { checkAtDesktopSize, expectNoBrokenLink } from "../docs/support/desktop.js";
import type { CollectedLinks } from "../docs/support/site-browser.js";

const site = useBuiltSite();
/** Every link found on the pages opened: href (resolved, same origin) to the page it is on, with its target. */
const links: CollectedLinks = new Map();

describe("every other page of the docs site", () => {
  describe.concurrent("in Chromium at desktop size", () => {
    // Concurrent tests must use the `expect` of their own context.
    it.for(expectedPages().filter((path) => !SAMPLE_PAGES.includes(path)))(
      "%s (desktop) loads cleanly and is laid out as a reader needs it",
      (path, c) => checkAtDesktopSize(site, path, c.expect, links),
    );
  });

  it("no link on those pages ends on the not-found page or misses its anchor", async ({ expect }) => {
    await expectNoBrokenLink(site, links, expect);
  }, 300_000);
});
