// Headless Chromium through playwright-core, for rendering the docs' diagrams at build time and for the docs tests.
// It is Debian's package (`playwright install` cannot download browsers here); CHROMIUM_PATH points elsewhere.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Installs Debian's chromium with apt-get when it is missing (test setups: CI machines start without it). */
export function installChromiumIfMissing(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  const apt = (args: string[]) =>
    execFileSync("apt-get", ["-o", "DPkg::Lock::Timeout=300", ...args], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  try {
    apt(["update"]);
    apt(["install", "-y", "--no-install-recommends", "chromium"]);
  } catch (error) {
    throw new Error(`${CHROMIUM_PATH} is missing and \`apt-get install chromium\` failed (are we root?): ${(error as Error).message}`, { cause: error });
  }
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} does not exist`);
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is needed at ${CHROMIUM_PATH} (install it with \`apt-get install chromium\`, or set CHROMIUM_PATH)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
