// The browser driver (--browser) on consent pages shaped like the common providers', in headless Chromium: it ticks
// the boxes (native or ARIA) of the requested scopes, leaves the others, and presses the button that grants, never
// the one that denies. Each page posts to a test server that records what the browser sent and redirects to the
// redirect_uri, where the driver stops.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserDriver } from "../../conformance/sign-in/browser.js";
import { openSignInDriver } from "../../conformance/sign-in/open.js";
import { Transport } from "../../conformance/send/transport.js";
import {
  ARIA_SWITCHES,
  AUTH0_CONSENT,
  GITHUB_AUTHORIZE,
  GOOGLE_GRANULAR,
  HYDRA_CONSENT,
  OKTA_CONSENT,
} from "../support/consent-pages.js";
import { startTestServer, type TestServer } from "../support/http.js";

const PAGES: Record<string, string> = {
  hydra: HYDRA_CONSENT,
  google: GOOGLE_GRANULAR,
  github: GITHUB_AUTHORIZE,
  okta: OKTA_CONSENT,
  auth0: AUTH0_CONSENT,
  aria: ARIA_SWITCHES,
};
const posted = new Map<string, URLSearchParams>();
let server: TestServer;
let driver: BrowserDriver;

beforeAll(async () => {
  server = await startTestServer((request, body, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const page = url.searchParams.get("page") ?? "";
    if (request.method === "GET" && PAGES[page]) {
      // Every form posts back here (the page's own action is replaced), with the page's name in the query.
      const html = PAGES[page].replace(
        /<form\b([^>]*?)(\saction="[^"]*")?([^>]*)>/,
        `<form$1 action="/decide?page=${page}"$3>`,
      );
      response.writeHead(200, { "Content-Type": "text/html" }).end(`<!DOCTYPE html><html><body>${html}</body></html>`);
      return;
    }
    if (request.method === "POST") {
      posted.set(page, new URLSearchParams(body.toString()));
      response.writeHead(302, { Location: "/callback?code=c" }).end();
      return;
    }
    response.writeHead(404).end();
  });
  driver = (await openSignInDriver(
    { driver: "browser" },
    { send: (request) => new Transport({ timeoutMs: 10_000 }).send(request), signIn: {}, timeoutMs: 10_000 },
  )) as BrowserDriver;
}, 60_000);
afterAll(async () => {
  await driver?.close();
  await server?.close();
});

/** The driver's way through one page for an authorization request with `scope`; what the page posted. */
async function consent(page: string, scope = "openid profile email"): Promise<URLSearchParams> {
  const url = `${server.url}/authorize?page=${page}&scope=${encodeURIComponent(scope)}`;
  // The consent page is where the authorization request lands.
  const navigation = await driver.navigate(url.replace("/authorize", "/consent"), {
    until: (next) => next.pathname === "/callback",
    purpose: "consent",
  });
  expect(navigation.failure).toBeUndefined();
  expect(navigation.arrived?.searchParams.get("code")).toBe("c");
  return posted.get(page)!;
}

describe("the browser driver on consent pages shaped like the common providers'", () => {
  it("Ory Hydra: ticks each requested scope's box, not 'Do not ask me again', and presses Allow access", async () => {
    const body = await consent("hydra");
    expect(body.getAll("grant_scope").sort()).toEqual(["email", "openid", "profile"]);
    expect(body.has("remember")).toBe(false);
    expect(body.getAll("submit")).toEqual(["Allow access"]);
  }, 60_000);

  it("ticks only the requested scopes", async () => {
    const body = await consent("hydra", "openid email");
    expect(body.getAll("grant_scope").sort()).toEqual(["email", "openid"]);
  }, 60_000);

  it("Google's granular consent: the e-mail and profile boxes, not 'Select all', then Continue", async () => {
    const body = await consent("google");
    expect(body.getAll("scopes").sort()).toEqual([
      "https://www.googleapis.com/auth/userinfo.email",
      "https://www.googleapis.com/auth/userinfo.profile",
    ]);
    expect(body.has("selectAll")).toBe(false);
    expect(body.getAll("action")).toEqual(["continue"]);
  }, 60_000);

  it.each([
    ["github", "authorize", "1"],
    ["okta", "consent", "Allow Access"],
    ["auth0", "action", "accept"],
  ])(
    "%s: presses the button that grants, never the one that denies",
    async (page, name, value) => {
      const body = await consent(page);
      expect(body.getAll(name)).toEqual([value]);
      expect(body.has("cancel")).toBe(false);
    },
    60_000,
  );

  it("ARIA switches: switches on the requested scopes only, and presses Allow, not Don't allow", async () => {
    const body = await consent("aria", "openid email");
    expect(body.get("scope")?.split(" ").sort()).toEqual(["email", "openid"]);
    expect(body.getAll("decision")).toEqual(["allow"]);
  }, 60_000);
});
