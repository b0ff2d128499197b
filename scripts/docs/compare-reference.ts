// Screenshots of three operation pages of our reference beside the same operations in Scalar's renderer
// (@scalar/api-reference), at 1440 and 390 pixels, for docs/guide/reference-comparison.md. Run after
// `npm run docs:build`:
//   tsx scripts/docs/compare-reference.ts [built site, default docs/.vitepress/dist] [out, default docs/public/compare]
// Scalar is installed with npm into a scratch directory, at the version below, when the script runs: it is used for
// nothing else, and as a devDependency it would add some 230 packages to every install. Its standalone bundle is
// given the same bundled contract the site offers for download (/specs/<api>.json), from the same server, with the
// network otherwise closed (no fonts or proxies from its CDN).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadContract } from "../../lib/contract/index.js";
import { fromPackageRoot } from "../../lib/paths.js";
import { serveStatic } from "../../test/docs/support/static-server.js";
import { freePort } from "../../test/support/ports.js";
import { launchChromium } from "./chromium.js";

/** The version compared with (the newest on npm when the comparison was made). */
export const SCALAR = "1.76.0";

/** The operations compared: their API, the page of ours, and Scalar's address of the operation (tag/method/path). */
export const COMPARED = [
  {
    operationId: "listCampaigns",
    api: "links",
    page: "/reference/links/campaigns",
    scalar: "campaigns/GET/api/campaigns",
  },
  { operationId: "createOrder", api: "pay", page: "/reference/pay/orders", scalar: "orders/POST/api/createOrder/" },
  {
    operationId: "exchangeToken",
    api: "identity",
    page: "/reference/identity/tokens",
    scalar: `tokens/POST${loadContract("identity").operation("exchangeToken").path}`,
  },
] as const;

export const WIDTHS = [
  { name: "1440", viewport: { width: 1440, height: 900 } },
  { name: "390", viewport: { width: 390, height: 844 } },
] as const;

function scalarPage(api: string): string {
  const config = JSON.stringify({ url: `/specs/${api}.json`, withDefaultFonts: false, hideClientButton: true });
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${api} (Scalar)</title></head>
<body><div id="app"></div><script src="./standalone.js"></script>
<script>Scalar.createApiReference("#app", ${config});</script></body></html>`;
}

async function main(): Promise<void> {
  const site = resolve(process.argv[2] ?? fromPackageRoot("docs", ".vitepress", "dist"));
  const out = resolve(process.argv[3] ?? fromPackageRoot("docs", "public", "compare"));
  mkdirSync(out, { recursive: true });
  const scalarDir = join(site, "scalar");
  mkdirSync(scalarDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), "scalar-"));
  execFileSync("npm", ["install", "--prefix", scratch, "--no-audit", "--no-fund", `@scalar/api-reference@${SCALAR}`], {
    stdio: "inherit",
  });
  copyFileSync(
    join(scratch, "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js"),
    join(scalarDir, "standalone.js"),
  );
  rmSync(scratch, { recursive: true, force: true });
  for (const { api } of COMPARED) writeFileSync(join(scalarDir, `${api}.html`), scalarPage(api));
  const server = await serveStatic(site, await freePort());
  const browser = await launchChromium();
  try {
    for (const { name, viewport } of WIDTHS) {
      const context = await browser.newContext({
        viewport,
        isMobile: viewport.width < 600,
        hasTouch: viewport.width < 600,
      });
      await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
      const page = await context.newPage();
      for (const op of COMPARED) {
        await page.goto(`${server.url}${op.page}#${op.operationId}`, { waitUntil: "networkidle" });
        await page.locator(`[id="${op.operationId}"]`).evaluate((heading) => {
          heading.scrollIntoView({ block: "start" });
          window.scrollBy(0, -80); // below the site's fixed top bar
        });
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(out, `${op.operationId}-ours-${name}.png`) });

        // Scalar renders the operations of a tag once they are navigated to, and scrolls there itself.
        await page.goto(`${server.url}/scalar/${op.api}.html#tag/${op.scalar}`, { waitUntil: "networkidle" });
        await page.waitForTimeout(3000);
        await page.screenshot({ path: join(out, `${op.operationId}-scalar-${name}.png`) });
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
