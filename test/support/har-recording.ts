// Real traffic recorded by a real tool: headless Chromium (playwright-core's recordHar) drives the built docs site's
// try-it consoles against an in-process sandbox (links, catalog, pay and identity), and signs in at the sandbox's
// identity provider (authorization code with PKCE, the code exchanged and the token used through the consoles). The
// HAR is written to a temporary directory only, read into memory and removed: it holds real secrets.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import { defaultConfig } from "../../mock/sandbox/config.js";
import { startSandbox } from "../../mock/sandbox/server.js";
import { builtSite } from "../docs/support/built-site.js";
import { workerChromium } from "./chromium.js";
import { freePort } from "./ports.js";
import { serveStatic } from "../docs/support/static-server.js";

const identityContract = loadContract("identity");

export interface BrowserRecording {
  /** The HAR file's text (Chromium's recordHar, bodies embedded). */
  har: string;
  urls: Record<ApiName, string>;
  /** Secrets the traffic carried, by kind, as the test knows them from its own side of the flow. */
  secrets: Record<string, string>;
}

async function send(
  page: Page,
  siteUrl: string,
  base: string,
  path: string,
  operationId: string,
  fill?: (c: Locator) => Promise<void>,
): Promise<string> {
  await page.goto(`${siteUrl}${path}`);
  const console = page.locator(`details.try-it[data-operation="${operationId}"]`);
  await console.locator("summary").first().click();
  await console.locator("input.try-it-base").fill(base);
  await fill?.(console);
  await console.locator("button.try-it-send").click();
  await console.locator(".try-it-status, .try-it-failure").first().waitFor({ timeout: 15_000 });
  const failure = console.locator(".try-it-failure");
  if (await failure.count()) throw new Error(`the ${operationId} console failed: ${await failure.textContent()}`);
  return (await console.locator(".try-it-response").textContent()) ?? "";
}

/** Authorization code + PKCE at the sandbox in the page; returns the code and the verifier. */
async function signIn(page: Page, identity: string, redirectUri: string): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const authorize = new URL(`${identity}${identityContract.operation("authorize").path}`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: "demo-app",
    redirect_uri: redirectUri,
    scope: "openid profile email offline_access",
    state: "passive-state-1",
    prompt: "consent",
    code_challenge: challenge,
    code_challenge_method: "S256",
  }))
    authorize.searchParams.set(name, value);
  await page.goto(authorize.toString());
  await page.locator('input[name="login"][type="email"]').fill("alice.novak@example.org");
  await page.locator('input[name="password"]').fill("alice-demo");
  await page.locator('button:has-text("E-mail")').click();
  for (let step = 0; step < 5 && !page.url().startsWith(redirectUri); step++) {
    const allow = page.locator('button:has-text("Allow")');
    if (await allow.count()) await allow.first().click();
    else
      await page
        .waitForURL((url) => url.toString().startsWith(redirectUri), { timeout: 10_000 })
        .catch(() => undefined);
  }
  const code = new URL(page.url()).searchParams.get("code");
  if (!code) throw new Error(`the sign-in did not reach ${redirectUri}: ${page.url()}`);
  return { code, verifier };
}

/** Records the traffic of the consoles and the sign-in; everything it started is stopped again. */
export async function recordBrowserTraffic(): Promise<BrowserRecording> {
  const site = await serveStatic(await builtSite(), await freePort());
  const config = defaultConfig();
  const redirectUri = `${site.url}/callback`;
  config.identity.clients[0]!.redirect_uris.push(redirectUri);
  const sandbox = await startSandbox({
    host: "127.0.0.1",
    ports: { identity: 0, links: 0, catalog: 0, pay: 0 },
    config,
  });
  const urls = sandbox.urls;
  const browser = await workerChromium();
  const dir = mkdtempSync(join(tmpdir(), "passive-har-"));
  const harPath = join(dir, "traffic.har");
  let context: BrowserContext | undefined;
  try {
    context = await browser.newContext({ recordHar: { path: harPath, content: "embed" } });
    const page = await context.newPage();
    const on = (api: ApiName, path: string, operationId: string, fill?: (c: Locator) => Promise<void>) =>
      send(page, site.url, urls[api], path, operationId, fill);
    await on("links", "/reference/links/account", "getAccount");
    await on("links", "/reference/links/campaigns", "listCampaigns");
    await on("links", "/reference/links/campaigns", "listCampaigns");
    await on("catalog", "/reference/catalog/shop", "getShop");
    await on("catalog", "/reference/catalog/shop", "getShop", (c) =>
      c.locator("input.try-it-key").fill("demo-seller-read-key"),
    );
    // The same console twice: the example's Idempotency-Key and body, so the second is a repeat.
    await on("catalog", "/reference/catalog/products", "createProduct");
    await on("catalog", "/reference/catalog/products", "createProduct");
    await on("pay", "/reference/pay/balance", "getBalance");
    await on("pay", "/reference/pay/orders", "listOrders");
    await on("identity", "/reference/identity/discovery", "getOpenIdConfiguration");
    const { code, verifier } = await signIn(page, urls.identity, redirectUri);
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      client_id: "demo-app",
      client_secret: "demo-app-secret",
      code_verifier: verifier,
    }).toString();
    const tokens = JSON.parse(
      await on("identity", "/reference/identity/tokens", "exchangeToken", (c) =>
        c.locator(".try-it-body textarea").fill(form),
      ),
    ) as { access_token: string; refresh_token?: string; id_token?: string };
    await on("identity", "/reference/identity/userinfo", "getUserInfo", (c) =>
      c.getByLabel("Access token").fill(tokens.access_token),
    );
    // RP-initiated logout with the id_token as hint: one more credential kind in the recording.
    if (tokens.id_token)
      await page
        .goto(
          `${urls.identity}${identityContract.operation("logout").path}?id_token_hint=${encodeURIComponent(tokens.id_token)}`,
        )
        .catch(() => undefined);
    await context.close(); // writes the HAR
    return {
      har: readFileSync(harPath, "utf8"),
      urls,
      secrets: {
        linksKey: "demo-links-key",
        sellerKey: "demo-seller-key",
        sellerReadKey: "demo-seller-read-key",
        payKey: "demo-pay-key",
        clientSecret: "demo-app-secret",
        password: "alice-demo",
        code,
        verifier,
        accessToken: tokens.access_token,
        ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
        ...(tokens.id_token ? { idToken: tokens.id_token } : {}),
      },
    };
  } finally {
    await context?.close();
    await sandbox.stop();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
