// `docs:dev` follows the bundles: the plugin of docs/.vitepress/config.ts, in a real Vite dev server whose root (like
// docs/) does not hold the bundles, regenerates the reference pages each time a bundle is written: in place, after
// the file was deleted and written again (a git checkout), and when another file is renamed over it.
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { createServer, type ViteDevServer } from "vite";
import { afterEach, describe, expect, it } from "vitest";
import { regenerateOnBundleChange } from "../../scripts/docs/regenerate-on-change.js";

let server: ViteDevServer | undefined;
const dir = mkdtempSync(join(tmpdir(), "docs-dev-"));
afterEach(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("docs:dev regenerates the reference pages", () => {
  it("whenever a bundle is written: in place, deleted and written again, replaced by a rename", async () => {
    const site = join(dir, "docs");
    const bundle = join(dir, "generated", "openapi", "pay.json");
    mkdirSync(site, { recursive: true });
    mkdirSync(join(dir, "generated", "openapi"), { recursive: true });
    writeFileSync(bundle, "{}\n");
    let regenerated = 0;
    server = await createServer({
      configFile: false,
      root: site,
      logLevel: "silent",
      plugins: [
        regenerateOnBundleChange([bundle], () => {
          regenerated += 1;
        }),
      ],
    });
    // The watch on the bundles' directory is set up in the background.
    await expect
      .poll(() => server!.watcher.getWatched()[join(dir, "generated", "openapi")] ?? [], { timeout: 5_000 })
      .toContain("pay.json");
    const next = async (write: () => void) => {
      // Writes a moment apart, as a developer's are: chokidar folds events within 100 ms of a deletion into one.
      await delay(300);
      const before = regenerated;
      write();
      await expect.poll(() => regenerated, { timeout: 5_000 }).toBeGreaterThan(before);
    };
    await next(() => writeFileSync(bundle, '{"version": 1}\n'));
    await next(() => {
      unlinkSync(bundle);
      writeFileSync(bundle, '{"version": 2}\n');
    });
    await next(() => writeFileSync(bundle, '{"version": 3}\n'));
    await next(() => {
      writeFileSync(`${bundle}.tmp`, '{"version": 4}\n');
      renameSync(`${bundle}.tmp`, bundle);
    });
    await next(() => writeFileSync(bundle, '{"version": 5}\n'));
  });
});
