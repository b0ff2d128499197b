// A writer's first steps on a machine with Node alone (issue 65): in a fresh checkout, `npm install` and then
// `npm run docs:build` succeed with no Chromium anywhere, and the built guides show their diagrams (the committed
// renders, scripts/docs/diagrams.ts). lib/chromium.ts looks for Chromium at fixed paths, not on PATH, so a PATH
// without it would hide nothing: both commands run in a mount namespace of their own (unshare, as root) in which
// every path it looks at is gone (an overlay with a whiteout for each), the real binaries' directory is empty,
// CHROMIUM_PATH is unset and playwright's own browsers directory is empty. The machine's Chromium stays as it is for
// everything else. A machine that cannot make the namespace fails the test: without the hiding it proves nothing.
import { mkdtempSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_CANDIDATES } from "../../lib/chromium.js";
import { freshCheckout } from "../support/fresh-checkout.js";
import { runToEnd } from "../support/processes.js";

const scratch = mkdtempSync(join(tmpdir(), "contracts-docs-without-chromium-"));
const checkout = join(scratch, "checkout");
const hidden = join(scratch, "hidden");
/** Where Debian's packages keep the binaries that /usr/bin/chromium and chromium-headless-shell start. */
const CHROMIUM_BINARIES = "/usr/lib/chromium";
const HIDDEN_MARKER = "chromium is hidden";

/** A shell script that hides every Chromium lib/chromium.ts could find, checks that it did, then runs `commands`. */
function withoutChromium(commands: string[]): string {
  const dirs = [...new Set(CHROMIUM_CANDIDATES.map((path) => dirname(path)))];
  const overlays = dirs.flatMap((dir, index) => [
    `mkdir "$hidden/upper${index}" "$hidden/work${index}"`,
    ...CHROMIUM_CANDIDATES.filter((path) => dirname(path) === dir).map(
      (path) => `mknod "$hidden/upper${index}/${basename(path)}" c 0 0`,
    ),
    `mount -t overlay contracts-no-chromium -o lowerdir=${dir},upperdir="$hidden/upper${index}",workdir="$hidden/work${index}" ${dir}`,
  ]);
  return [
    "set -e",
    `hidden=${hidden}`,
    `mkdir -p "$hidden"`,
    `mount -t tmpfs contracts-no-chromium "$hidden"`,
    ...overlays,
    `if [ -d ${CHROMIUM_BINARIES} ]; then mount -t tmpfs contracts-no-chromium ${CHROMIUM_BINARIES}; fi`,
    ...CHROMIUM_CANDIDATES.map((path) => `if [ -e ${path} ]; then echo "${path} is still there" >&2; exit 3; fi`),
    `if [ -n "$(ls -A ${CHROMIUM_BINARIES} 2>/dev/null)" ]; then echo "${CHROMIUM_BINARIES} is not empty" >&2; exit 3; fi`,
    "unset CHROMIUM_PATH",
    `export PLAYWRIGHT_BROWSERS_PATH="$hidden/no-browsers" PATH="${dirname(process.execPath)}:/usr/bin:/bin"`,
    `echo "${HIDDEN_MARKER}"`,
    ...commands,
  ].join("\n");
}

let result: { status: number | string; stdout: string; stderr: string };

beforeAll(async () => {
  await freshCheckout(checkout);
  result = await runToEnd(
    "unshare",
    ["--mount", "--propagation", "private", "sh", "-c", withoutChromium(["npm install", "npm run docs:build"])],
    checkout,
    { npm_config_audit: "false", npm_config_fund: "false", npm_config_prefer_offline: "true" },
  );
}, 1_200_000);

// Not rmSync: a checkout with its node_modules takes minutes to delete on a busy machine, and a worker blocked that
// long misses vitest's own messages.
afterAll(() => rm(scratch, { recursive: true, force: true }), 600_000);

describe("a fresh checkout on a machine with Node and no Chromium", () => {
  it("hides every Chromium lib/chromium.ts looks for (in a mount namespace of the commands' own)", () => {
    expect(
      result.stdout,
      `could not hide Chromium (unshare --mount and mount need root); exit ${result.status}:\n${result.stderr}`,
    ).toContain(HIDDEN_MARKER);
  });

  it("`npm install` then `npm run docs:build` succeed", () => {
    expect(result.status, `${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`).toBe(0);
    expect(result.stdout).toContain("build complete");
  });

  it("the built guides show their diagrams, light and dark", () => {
    for (const guide of ["architecture", "catalog", "identity", "pay"]) {
      const html = readFileSync(join(checkout, "docs/.vitepress/dist/guide", `${guide}.html`), "utf8");
      expect(html, guide).toMatch(
        /<figure class="diagram"><img class="diagram-default" src="data:image\/svg\+xml;base64,[^"]+"[^>]*><img class="diagram-dark" src="data:image\/svg\+xml;base64,/,
      );
    }
  });
});
