// The built docs site (test/docs/support/built-site.ts) in headless Chromium at phone size: a page of each kind, as
// test/docs/support/phone.ts checks it. Every other page is a release proof (test/release/site-phone.test.ts).
import { describe, it } from "vitest";
import { SAMPLE_PAGES, useBuiltSite } from "./support/built-site.js";
import { checkAtPhoneSize } from "./support/phone.js";

const site = useBuiltSite();

describe.concurrent("a page of each kind in Chromium at phone size", () => {
  // Concurrent tests must use the `expect` of their own context.
  it.for(SAMPLE_PAGES)("%s (phone) loads cleanly, fits the screen and breaks no word of a table", (path, c) =>
    checkAtPhoneSize(site, path, c.expect),
  );
});
