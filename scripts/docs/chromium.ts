// Headless Chromium through playwright-core, for rendering the docs' diagrams (`npm run docs:diagrams`) and for the
// docs tests: the one lib/chromium.ts finds (Debian's headless shell first), or CHROMIUM_PATH.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium, HEADLESS_SHELL } from "../../lib/chromium.js";

/**
 * Installs Debian's chromium-headless-shell with apt-get when it is missing (test setups: CI machines start without
 * it), so that every machine runs the tests in the same Chromium; with CHROMIUM_PATH set, only checks that it exists.
 */
export function installChromiumIfMissing(): void {
  if (process.env.CHROMIUM_PATH) {
    if (!existsSync(process.env.CHROMIUM_PATH))
      throw new Error(`CHROMIUM_PATH names ${process.env.CHROMIUM_PATH}, which does not exist`);
    return;
  }
  if (existsSync(HEADLESS_SHELL.path)) return;
  const apt = (args: string[]) =>
    execFileSync("apt-get", ["-o", "DPkg::Lock::Timeout=300", ...args], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  try {
    apt(["update"]);
    apt(["install", "-y", "--no-install-recommends", HEADLESS_SHELL.debianPackage]);
  } catch (error) {
    throw new Error(
      `${HEADLESS_SHELL.path} is missing and \`apt-get install ${HEADLESS_SHELL.debianPackage}\` failed (are we root?): ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (!existsSync(HEADLESS_SHELL.path))
    throw new Error(`apt-get installed ${HEADLESS_SHELL.debianPackage} but ${HEADLESS_SHELL.path} does not exist`);
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath || !existsSync(executablePath)) {
    throw new Error(
      `Chromium is needed (install it with \`apt-get install ${HEADLESS_SHELL.debianPackage}\` or \`apt-get install chromium\`, or set CHROMIUM_PATH)`,
    );
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
