// One headless Chromium per vitest worker, shared by the test files the worker runs one after another (isolate: false
// keeps this module loaded between them), instead of one launched and closed by every file. A file opens contexts
// (or pages) of its own and closes them; the browser ends with its worker, as playwright closes what it launched
// when its process ends.
import type { Browser } from "playwright-core";
import { launchChromium } from "../../scripts/docs/chromium.js";

let launched: Promise<Browser> | undefined;

/** This worker's Chromium, launched on first use and again if it has gone away (a crash of an earlier file's page). */
export async function workerChromium(): Promise<Browser> {
  launched ??= launchChromium();
  const current = launched;
  const forget = () => {
    if (launched === current) launched = undefined;
  };
  const browser = await current.catch((error: unknown) => {
    forget();
    throw error;
  });
  if (browser.isConnected()) return browser;
  forget();
  return workerChromium();
}
