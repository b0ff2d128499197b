// The built docs site at phone size, every page npm test does not open (test/docs/site-phone.test.ts opens a page of
// each kind), as test/docs/support/phone.ts checks it. Like everything under test/release/, it runs where releases
// are proven: in CI (CI=true) and with `npm run test:release`.
import { describe, it } from "vitest";
import { expectedPages, SAMPLE_PAGES, useBuiltSite } from "../docs/support/built-site.js";
import { checkAtPhoneSize } from "../docs/support/phone.js";

const site = useBuiltSite();

describe.concurrent("every other page in Chromium at phone size", () => {
  // Concurrent tests must use the `expect` of their own context.
  it.for(expectedPages().filter((path) => !SAMPLE_PAGES.includes(path)))(
    "%s (phone) loads cleanly, fits the screen and breaks no word of a table",
    (path, c) => checkAtPhoneSize(site, path, c.expect),
  );
});
