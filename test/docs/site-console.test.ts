// The interactive parts of the built docs site (test/docs/support/built-site.ts) in headless Chromium: the console
// of an operation sends its call to a running sandbox or mock (`contracts sandbox` / `contracts mock` on free ports)
// and shows the response; search ranks operations above schemas; the copy-link button copies the operation's
// stable address. Screenshots of the home page, a guide and a reference page go to test/docs/screenshots/.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES, type ApiName, loadContract } from "../../lib/contract/index.js";
import { repoRoot, runContracts, type RunningCommand } from "../support/processes.js";
import { useBuiltSite } from "./support/built-site.js";
import { freePort } from "../support/ports.js";

const SCREENSHOTS = join(repoRoot, "test/docs/screenshots");
const site = useBuiltSite();

/**
 * `contracts sandbox` (all four APIs) and `contracts mock --api links` on free ports, for the tests of this file. The
 * sandbox's demo client also registers a redirect URI on the site's origin: identity's token and userinfo endpoints
 * answer browsers from the client's own origins only (docs:dev, on localhost:5173, is one of the default ones).
 */
function useRunningTargets(): { sandbox: Record<ApiName, string>; mock: Record<ApiName, string> } {
  let sandbox: RunningCommand;
  let mock: RunningCommand;
  const urls = { sandbox: {} as Record<ApiName, string>, mock: {} as Record<ApiName, string> };

  beforeAll(async () => {
    const printed = runContracts(["sandbox", "--print-config"]);
    await printed.exit;
    const config = JSON.parse(printed.stdout()) as { identity: { clients: Array<{ redirect_uris: string[] }> } };
    config.identity.clients[0]!.redirect_uris.push(`${site.url}/callback`);
    const configFile = join(mkdtempSync(join(tmpdir(), "console-sandbox-")), "config.json");
    writeFileSync(configFile, JSON.stringify(config));
    const ports = await Promise.all(API_NAMES.map(() => freePort()));
    sandbox = runContracts([
      "sandbox",
      "--config",
      configFile,
      ...API_NAMES.flatMap((api, i) => ["--port", `${api}=${ports[i]}`]),
    ]);
    API_NAMES.forEach((api, i) => (urls.sandbox[api] = `http://127.0.0.1:${ports[i]}`));
    const mockPort = await freePort();
    mock = runContracts(["mock", "--api", "links", "--port", `links=${mockPort}`]);
    urls.mock.links = `http://127.0.0.1:${mockPort}`;
    await sandbox.waitForOutput(new RegExp(String(ports[API_NAMES.indexOf("pay")])));
    await mock.waitForOutput(new RegExp(String(mockPort)));
  }, 60_000);

  afterAll(async () => {
    sandbox?.child.kill("SIGTERM");
    mock?.child.kill("SIGTERM");
    await Promise.all([sandbox?.exit, mock?.exit]);
  });
  return urls;
}

const urls = useRunningTargets();

describe("the console of an operation against a running sandbox and mock", () => {
  it.each([
    ["sandbox", "identity", "/reference/identity/discovery", "getOpenIdConfiguration", /"issuer"/],
    ["sandbox", "links", "/reference/links/campaigns", "listCampaigns", /"campaigns"/],
    ["sandbox", "pay", "/reference/pay/balance", "getBalance", /"type": "success"/],
    ["sandbox", "pay", "/reference/pay/orders", "createOrder", /"url": "http/],
    // The example adds a domain the demo account does not hold yet: the sandbox refused the first try with "already
    // added".
    ["sandbox", "links", "/reference/links/domains", "addDomain", /"id": \d+/],
    ["mock", "links", "/reference/links/campaigns", "addCampaign", /"domain": "Spring Launch"/],
  ] as const)(
    "%s, %s: %s#%s sends the call and shows the 200 response",
    async (target, api, path, operationId, expected) => {
      const base = urls[target][api];
      const { page, problems, end } = await site.visit(path, "desktop", [new URL(base).host]);
      try {
        const console = page.locator(`details.try-it[data-operation="${operationId}"]`);
        await console.locator("summary").first().click();
        await console.getByLabel(target === "mock" ? "Prism mock" : "Stateful sandbox").check();
        await console.locator("input.try-it-base").fill(base);
        await console.locator("button.try-it-send").click();
        await expect
          .poll(
            () =>
              console
                .locator(".try-it-status")
                .textContent()
                .catch(() => ""),
            { timeout: 10_000 },
          )
          .toMatch(/^200\b/);
        expect(await console.locator(".try-it-response").textContent()).toMatch(expected);
        expect(problems).toEqual([]);
      } finally {
        await end();
      }
    },
  );
});

describe("the console of the identity token endpoint", () => {
  it("sends the sandbox's demo client, so that the made-up code of the example is what is refused (invalid_grant)", async () => {
    const base = urls.sandbox.identity;
    const { page, problems, end } = await site.visit("/reference/identity/tokens", "desktop", [new URL(base).host]);
    try {
      const console = page.locator('details.try-it[data-operation="exchangeToken"]');
      await console.locator("summary").first().click();
      await console.locator("input.try-it-base").fill(base);
      await console.locator("button.try-it-send").click();
      await expect
        .poll(
          () =>
            console
              .locator(".try-it-status")
              .textContent()
              .catch(() => ""),
          { timeout: 10_000 },
        )
        .toMatch(/^400\b/);
      expect(await console.locator(".try-it-response").textContent()).toMatch(/"error": "invalid_grant"/);
      // The refusal itself, which Chromium reports: nothing else.
      expect(problems).toEqual([
        `HTTP 400: ${base}${loadContract("identity").operation("exchangeToken").path}`,
        "console error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
      ]);
    } finally {
      await end();
    }
  });
});

describe("the console of a pay operation, given a body it cannot sign", () => {
  it.each([
    ['{ "page": ', /^The body is not JSON \(.+\)\. Nothing was sent\.$/],
    [
      "[1, 2]",
      /^A pay body is a JSON object: the console adds shop_id and a nonce to its fields, then signs it\. Nothing was sent\.$/,
    ],
  ])("%s: says what is wrong with the body, blames no server and sends nothing", async (typed, message) => {
    const base = urls.sandbox.pay;
    const { page, problems, end } = await site.visit("/reference/pay/orders", "desktop", [new URL(base).host]);
    const sent: string[] = [];
    const record = (request: Request) => {
      if (request.url().startsWith(base)) sent.push(request.url());
    };
    page.on("request", record);
    try {
      const console = page.locator('details.try-it[data-operation="listOrders"]');
      await console.locator("summary").first().click();
      await console.locator("input.try-it-base").fill(base);
      await console.locator(".try-it-body textarea").fill(typed);
      await console.locator("button.try-it-send").click();
      await expect
        .poll(
          () =>
            console
              .locator(".try-it-failure")
              .textContent()
              .catch(() => ""),
          { timeout: 10_000 },
        )
        .toMatch(message);
      expect(sent).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      page.off("request", record);
      await end();
    }
  });
});

describe("docs site interactions", () => {
  it("search ranks an operation above the schemas named after it", async () => {
    const { page, problems, end } = await site.visit("/");
    try {
      await page.locator(".DocSearch-Button, .VPNavBarSearchButton").first().click();
      for (const [query, expected] of [
        ["createOrder", "/reference/pay/orders#createOrder"],
        ["addCampaign", "/reference/links/campaigns#addCampaign"],
        ["date_payed", "/reference/pay/"],
      ] as const) {
        await page.locator("#localsearch-input").fill(query);
        const first = page.locator(".VPLocalSearchBox .results a").first();
        await expect
          .poll(async () => (await first.getAttribute("href").catch(() => "")) ?? "", { timeout: 10_000 })
          .toContain(expected);
      }
      expect(problems).toEqual([]);
    } finally {
      await end();
    }
  });

  it("the copy-link button copies the operation's stable address", async () => {
    await site.contexts.desktop.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.url });
    const { page, problems, end } = await site.visit("/reference/pay/orders");
    try {
      await page.locator('button.copy-link[data-anchor="createOrder"]').click();
      await expect
        .poll(() => page.evaluate(() => navigator.clipboard.readText()))
        .toBe(`${site.url}/reference/pay/orders#createOrder`);
      expect(problems).toEqual([]);
    } finally {
      await end();
    }
  });

  it("saves screenshots of the home page, a guide and a reference page", async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const [name, path, viewport] of [
      ["home", "/", "desktop"],
      ["guide-pay", "/guide/pay#the-payment-flow", "desktop"],
      ["reference-links", "/reference/links/campaigns#addCampaign", "desktop"],
      ["reference-pay-phone", "/reference/pay/orders#createOrder", "phone"],
    ] as const) {
      const { page, end } = await site.visit(path, viewport);
      try {
        await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
      } finally {
        await end();
      }
    }
    expect(readdirSync(SCREENSHOTS).sort()).toEqual(
      expect.arrayContaining(["guide-pay.png", "home.png", "reference-links.png", "reference-pay-phone.png"]),
    );
  });
});
