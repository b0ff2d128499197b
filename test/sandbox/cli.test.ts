// The real `contracts sandbox` command: it prints the URLs and demo credentials, keeps its state in --data across
// a restart (links, catalog, pay, and identity's signing key and refresh tokens), refuses a broken data file, one in a
// missing directory and a port in use with one clear line, and leaves no process behind.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createIdentityClient } from "../../clients/identity.js";
import { API_NAMES } from "../../lib/contract/index.js";
import { defaultConfig } from "../../mock/sandbox/config.js";
import { formAction, ScriptedBrowser } from "./support/browser.js";
import { clientsFor } from "./support/clients.js";
import { contractFetch } from "./support/contract-fetch.js";
import { portsFrom } from "./support/sandbox.js";
import { testPort } from "../support/ports.js";
import { processesMatching, repoRoot, type RunningCommand, runContracts, spawnCommand } from "../support/processes.js";
import { submitPaymentPage } from "./support/pay-page.js";

const BASE_PORT = testPort(4470);
const PORTS = portsFrom(BASE_PORT);
const urls = Object.fromEntries(API_NAMES.map((api) => [api, `http://127.0.0.1:${PORTS[api]}`])) as Record<
  (typeof API_NAMES)[number],
  string
>;
const directory = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
const dataFile = join(directory, "state.json");
const started: RunningCommand[] = [];

async function start(...extra: string[]): Promise<RunningCommand> {
  const command = runContracts(["sandbox", "--base-port", String(BASE_PORT), "--data", dataFile, ...extra]);
  started.push(command);
  await command.waitForOutput(new RegExp(`pay\\s+http://127\\.0\\.0\\.1:${PORTS.pay}\\b`), 30_000);
  // The demo credentials follow the table of URLs; under load they may arrive in a later chunk.
  await command.waitForOutput(/createOrder returns a payment page/, 30_000);
  return command;
}

async function stop(command: RunningCommand): Promise<void> {
  command.child.kill("SIGTERM");
  expect(await command.exit).toBe(0);
}

afterAll(() => {
  for (const command of started) if (command.child.exitCode === null) command.child.kill("SIGKILL");
});

describe("contracts sandbox", () => {
  it("keeps its state across a restart with --data", async () => {
    const first = await start();
    const out = first.stdout();
    expect(out).toContain("new, seeded with the demo data");
    for (const api of API_NAMES) expect(out).toMatch(new RegExp(`${api}\\s+${urls[api].replaceAll(".", "\\.")}`));
    expect(out).toMatch(/client demo-app \/ secret demo-app-secret/);
    expect(out).toMatch(/alice\.novak@example\.org \/ alice-demo/);
    expect(out).toMatch(/Bearer demo-links-key/);
    expect(out).toMatch(
      /issuance events signed with: shop_northwind demo-issuance-secret, shop_gear demo-gear-issuance-secret/,
    );

    const checked = contractFetch(urls);
    const clients = clientsFor(urls, checked);
    const domainId = (await clients.links().POST("/api/domain/add", { body: { domain: "https://kept.example.com" } }))
      .data.id;
    const productId = (
      (
        await clients.catalog().POST("/admin/seller-api/products", {
          body: {
            title: "Kept",
            delivery_type: "digital_instant",
            category_id: "pcat_8kq2m4x7",
            status: "published",
            variants: [],
          },
        })
      ).data as { id: string }
    ).id;
    const order = (await clients.pay().POST("/api/createOrder/", { body: { currency: "RUB", amount: 100 } })).data.data;
    expect((await submitPaymentPage(order.url, "pay", { redirect: "manual" })).status).toBe(303);

    const identity = await createIdentityClient({
      issuer: urls.identity,
      clientId: "demo-app",
      clientSecret: "demo-app-secret",
      redirectUri: "http://127.0.0.1:5173/callback",
      allowInsecureRequests: true,
    });
    const request = await identity.createAuthorizationRequest(["openid", "offline_access"]);
    const browser = new ScriptedBrowser(checked, "http://127.0.0.1:5173/");
    const form = await browser.get(request.url);
    const back = await browser.submit(formAction(form.html, form.url, 'value="email"'), {
      method: "email",
      login: "alice.novak@example.org",
      password: "alice-demo",
    });
    const tokens = await identity.handleCallback(back.url, request);

    // Killed outright right after its last answer: what it answered (tokens included) was on disk already.
    first.child.kill("SIGKILL");
    await first.exit;
    expect(() => JSON.parse(readFileSync(dataFile, "utf8"))).not.toThrow();
    // The snapshot and its journal: no temporary file left behind.
    expect(readdirSync(directory).sort()).toEqual(["state.json", "state.json.journal"]);

    const second = await start();
    expect(second.stdout()).toContain("(restored)");
    const links = clientsFor(urls, checked).links();
    expect(
      (await links.GET("/api/domains", { params: { query: { limit: 50 } } })).data?.data.domains.map((d) => d.id),
    ).toContain(domainId);
    const products = await (
      await fetch(`${urls.catalog}/_sandbox/products`, { headers: { "x-seller-api-key": "demo-seller-key" } })
    ).json();
    expect(products.map((p: { id: string }) => p.id)).toContain(productId);
    const orders = (await clientsFor(urls, checked).pay().POST("/api/orders/", { body: {} })).data.data;
    expect(orders.find((o) => o.id === order.id)).toMatchObject({ status: 1 });

    // The signing key and the refresh token survived: the old id_token verifies and the refresh works.
    const again = await createIdentityClient({
      issuer: urls.identity,
      clientId: "demo-app",
      clientSecret: "demo-app-secret",
      redirectUri: "http://127.0.0.1:5173/callback",
      allowInsecureRequests: true,
    });
    expect((await again.verifyIdToken(tokens.idToken!)).sub).toBe(tokens.claims!.sub);
    expect((await again.refresh(tokens.refreshToken!)).accessToken).toBeTruthy();
    await stop(second);
    expect(processesMatching(`sandbox --base-port ${BASE_PORT}`)).toEqual([]);
  });

  it("refuses a broken data file, a data file it cannot write and a port in use with one clear line", async () => {
    const broken = join(directory, "broken.json");
    writeFileSync(broken, '{"version": 1, "links": ');
    const bad = runContracts(["sandbox", "--base-port", String(BASE_PORT), "--data", broken]);
    started.push(bad);
    expect(await bad.exit).toBe(1);
    expect(bad.stderr()).toMatch(/^contracts: the data file .*broken\.json is not valid JSON/m);
    expect(readFileSync(broken, "utf8")).toBe('{"version": 1, "links": '); // left as it was

    // A data file in a directory that does not exist: refused at start, not after every change.
    const nowhere = join(directory, "missing", "state.json");
    const homeless = runContracts(["sandbox", "--base-port", String(BASE_PORT), "--data", nowhere]);
    started.push(homeless);
    expect(await homeless.exit).toBe(1);
    expect(homeless.stderr()).toMatch(
      `contracts: cannot write the data file ${nowhere}: the directory ${join(directory, "missing")} does not exist; create it first`,
    );
    expect(homeless.stdout()).not.toMatch(/state kept in/);
    expect(existsSync(join(directory, "missing"))).toBe(false);

    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(PORTS.catalog, "127.0.0.1", resolve));
    try {
      const busy = runContracts(["sandbox", "--base-port", String(BASE_PORT)]);
      started.push(busy);
      expect(await busy.exit).toBe(1);
      expect(busy.stderr()).toMatch(`port ${PORTS.catalog} (catalog) is already in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const usage = runContracts(["sandbox", "--rate-limit", "lots"]);
    started.push(usage);
    expect(await usage.exit).toBe(2);
    expect(usage.stderr()).toMatch(/--rate-limit takes a number of requests per minute \(30, 30\/min\)/);
  });
});

describe("contracts sandbox: the start-up banner", () => {
  it("prints the built-in demo secrets, but where a --config file's own secrets are, never the secrets", async () => {
    const config = defaultConfig();
    config.identity.clients[0]!.client_secret = "own-client-secret-4f9a";
    config.identity.accounts[0]!.password = "own-password-77c1";
    config.links.keys[0]!.api_key = "own-links-key-e2d8";
    config.catalog.keys[0]!.api_key = "own-seller-key-51b0";
    config.catalog.shops[0]!.issuance_secret = "own-issuance-secret-9d3e";
    config.pay.keys[0]!.api_key = "own-pay-key-a6f2"; // the second pay key stays the demo one
    const configFile = join(directory, "own.json");
    writeFileSync(configFile, JSON.stringify(config));
    const command = await start("--config", configFile);
    const out = command.stdout();
    expect(out).not.toMatch(/own-/);
    expect(out).toContain(`client demo-app / secret <identity.clients[0].client_secret from ${configFile}>`);
    expect(out).toContain(`alice.novak@example.org / <identity.accounts[0].password from ${configFile}>`);
    expect(out).toContain(`Bearer <links.keys[0].api_key from ${configFile}>, expired-links-key (expired)`);
    expect(out).toContain(`x-seller-api-key: <catalog.keys[0].api_key from ${configFile}> (shop_northwind`);
    expect(out).toContain(
      `shop_northwind <catalog.shops[0].issuance_secret from ${configFile}>, shop_gear demo-gear-issuance-secret`,
    );
    expect(out).toContain(`3561 / <pay.keys[0].api_key from ${configFile}>, 3562 / demo-pay-key-3562`);
    await stop(command);
  });
});

describe("contracts sandbox: signals", () => {
  it("a SIGTERM during start-up ends the sandbox as soon as it is up, with exit 0", async () => {
    // It says it is starting once it watches the signals, before it loads the sandbox (oidc-provider, the contracts'
    // validators, the ports), which takes a while even on an idle machine: a SIGTERM there killed it half-started.
    const command = runContracts(["sandbox", "--base-port", String(BASE_PORT)]);
    started.push(command);
    while (!command.stderr().includes("Starting the stateful sandbox") && command.child.exitCode === null)
      await new Promise((r) => setTimeout(r, 5));
    const outputAtSignal = command.stdout();
    command.child.kill("SIGTERM");
    expect(await command.exit, command.stderr()).toBe(0);
    expect(outputAtSignal).not.toContain("Stateful sandbox");
    expect(command.stderr()).toContain("SIGTERM: stopping the sandbox");
  });

  it("npm run sandbox compiles nothing when dist/ is fresh, and stops on SIGTERM with exit 0", async () => {
    const command = spawnCommand("npm", ["run", "sandbox", "--", "--base-port", String(BASE_PORT)], repoRoot);
    started.push(command);
    await command.waitForOutput(new RegExp(`pay\\s+http://127\\.0\\.0\\.1:${PORTS.pay}\\b`), 60_000);
    command.child.kill("SIGTERM");
    expect(await command.exit, command.stderr()).toBe(0);
    expect(command.stderr()).not.toContain("compiling");
  });
});
