// The interactive parts of the built docs site (test/docs/support/built-site.ts) in headless Chromium: the console
// of an operation sends its call to a running sandbox or mock (`contracts sandbox` / `contracts mock` on free ports)
// and shows the response; search ranks operations above schemas; the copy-link button copies the operation's
// stable address. Screenshots of the home page, a guide and a reference page go to test/docs/screenshots/.
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES, type ApiName, loadContract } from "../../lib/contract/index.js";
import { repoRoot, runContracts, type RunningCommand } from "../support/processes.js";
import { useBuiltSite } from "./support/built-site.js";
import { freePort } from "../support/ports.js";

const SCREENSHOTS = join(repoRoot, "test/docs/screenshots");
const site = useBuiltSite();

/**
 * `contracts sandbox` (all four APIs, its default config) and `contracts mock --api links` on free ports, for the
 * tests of this file. The site is served on another loopback port, as `docs:dev` and `docs:preview` are: identity's
 * token and userinfo endpoints must answer it although it is none of the demo client's redirect origins.
 */
function useRunningTargets(): { sandbox: Record<ApiName, string>; mock: Record<ApiName, string> } {
  let sandbox: RunningCommand;
  let mock: RunningCommand;
  const urls = { sandbox: {} as Record<ApiName, string>, mock: {} as Record<ApiName, string> };

  beforeAll(async () => {
    const ports = await Promise.all(API_NAMES.map(() => freePort()));
    sandbox = runContracts(["sandbox", ...API_NAMES.flatMap((api, i) => ["--port", `${api}=${ports[i]}`])]);
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

/** The shell assignments `contracts sandbox sign-in` prints (export NAME='value'), as the console's hint tells. */
async function signIn(issuer: string): Promise<Record<string, string>> {
  const command = runContracts(["sandbox", "sign-in", "--issuer", issuer]);
  expect(await command.exit, command.stderr()).toBe(0);
  return Object.fromEntries([...command.stdout().matchAll(/^export (\w+)='([^']*)'$/gm)].map((m) => [m[1], m[2]]));
}

/** Sends the open console's request and waits for its status line. */
async function sendAndWait(console: Locator): Promise<string> {
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
    .toMatch(/^\d{3}\b/);
  return (await console.locator(".try-it-status").textContent()) ?? "";
}

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
        expect(await sendAndWait(console)).toMatch(/^200\b/);
        expect(await console.locator(".try-it-response").textContent()).toMatch(expected);
        expect(problems).toEqual([]);
      } finally {
        await end();
      }
    },
  );
});

describe("the identity consoles, on a loopback port that is none of the demo client's redirect origins", () => {
  it("prefill no code or ID token that looks real, say how to get them, exchange a real code and read userinfo", async () => {
    const base = urls.sandbox.identity;
    const tokens = await site.visit("/reference/identity/tokens", "desktop", [new URL(base).host]);
    let accessToken: string | undefined;
    try {
      const console = tokens.page.locator('details.try-it[data-operation="exchangeToken"]');
      await console.locator("summary").first().click();
      await console.locator("input.try-it-base").fill(base);
      expect(await console.locator(".try-it-sign-in").textContent()).toContain("npx contracts sandbox sign-in");
      const textarea = console.locator(".try-it-body textarea");
      const prefilled = new URLSearchParams(await textarea.inputValue());
      expect(prefilled.get("code")).toBe("paste-CODE-from-npx-contracts-sandbox-sign-in");
      expect(prefilled.get("code_verifier")).toBe("paste-CODE_VERIFIER-from-npx-contracts-sandbox-sign-in");

      // Sent as it is, the placeholder is refused: the sandbox's answer, readable by the page (CORS allowed it).
      expect(await sendAndWait(console)).toMatch(/^400\b/);
      expect(await console.locator(".try-it-response").textContent()).toMatch(/"error": "invalid_grant"/);

      const { CODE, CODE_VERIFIER } = await signIn(base);
      prefilled.set("code", CODE!);
      prefilled.set("code_verifier", CODE_VERIFIER!);
      await textarea.fill(prefilled.toString());
      expect(await sendAndWait(console)).toMatch(/^200\b/);
      const answer = JSON.parse((await console.locator(".try-it-response").textContent()) ?? "") as {
        access_token: string;
      };
      accessToken = answer.access_token;
      // The placeholder's refusal, which Chromium reports: nothing else.
      expect(tokens.problems).toEqual([
        `HTTP 400: ${base}${loadContract("identity").operation("exchangeToken").path}`,
        "console error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
      ]);
    } finally {
      await tokens.end();
    }

    // The logout console: no example ID token the sandbox must refuse, but a placeholder that says where one comes
    // from; its body, with the ID_TOKEN `contracts sandbox sign-in` prints, is a logout the sandbox accepts. Sent
    // from here (Node), not from the page: the sandbox's logout answers are pages, which no other page may read.
    const logout = await site.visit("/reference/identity/session", "desktop", [new URL(base).host]);
    try {
      const console = logout.page.locator('details.try-it[data-operation="logoutWithForm"]');
      await console.locator("summary").first().click();
      await console.locator("input.try-it-base").fill(base);
      expect(await console.locator(".try-it-sign-in").textContent()).toMatch(/ID_TOKEN.*id_token_hint/s);
      const prefilled = new URLSearchParams(await console.locator(".try-it-body textarea").inputValue());
      expect(prefilled.get("id_token_hint")).toBe("paste.ID_TOKEN.from-npx-contracts-sandbox-sign-in");
      const url = `${base}${loadContract("identity").operation("logoutWithForm").path}`;
      const send = (form: URLSearchParams) =>
        fetch(url, { method: "POST", body: form, redirect: "manual", headers: { origin: new URL(site.url).origin } });
      const refused = await send(prefilled);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("could not decode id_token_hint");
      const { ID_TOKEN } = await signIn(base);
      prefilled.set("id_token_hint", ID_TOKEN!);
      const accepted = await send(prefilled);
      expect(accepted.status).toBe(200);
      expect(await accepted.text()).toMatch(/<form method="post" action="[^"]+\/confirm">/);
      expect(logout.problems).toEqual([]);
    } finally {
      await logout.end();
    }

    const userinfo = await site.visit("/reference/identity/userinfo", "desktop", [new URL(base).host]);
    try {
      const console = userinfo.page.locator('details.try-it[data-operation="getUserInfo"]');
      await console.locator("summary").first().click();
      await console.locator("input.try-it-base").fill(base);
      await console.getByPlaceholder("ACCESS_TOKEN from npx contracts sandbox sign-in").fill(accessToken);
      expect(await sendAndWait(console)).toMatch(/^200\b/);
      expect(await console.locator(".try-it-response").textContent()).toMatch(/"email": "alice.novak@example.org"/);
      expect(userinfo.problems).toEqual([]);
    } finally {
      await userinfo.end();
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
