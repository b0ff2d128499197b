// Which headless Chromium to run, for `conform --browser`, the docs' diagrams and the browser tests, all driven by
// playwright-core (which cannot download browsers here). Debian's chromium-headless-shell comes first: the headless
// build Playwright itself runs headless tests in, the same Blink and V8 without the browser's own layers, and about
// a third less CPU a page than the full browser in --headless (measured on the docs site). The full browser is next.
import { existsSync } from "node:fs";

export const HEADLESS_SHELL = { path: "/usr/bin/chromium-headless-shell", debianPackage: "chromium-headless-shell" };

/** Where findChromium looks, in this order. */
export const CHROMIUM_CANDIDATES = [
  HEADLESS_SHELL.path,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

/** No sandbox (root in containers), no GPU, and nothing that calls home: the network here is closed. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** `explicit` when given, else the first Chromium installed. */
export function findChromium(explicit?: string): string | undefined {
  if (explicit) return explicit;
  return CHROMIUM_CANDIDATES.find((path) => existsSync(path));
}
