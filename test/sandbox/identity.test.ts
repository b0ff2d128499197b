// openid-client (a relying party nobody here wrote) against the sandbox's OpenID Connect provider: discovery, the
// code + PKCE flow through the HTML sign-in form driven with plain fetch, token exchange, userinfo, refresh and
// id_token verification with the JWKS; code reuse, a wrong verifier and an unregistered redirect_uri refused.
// Every response of a contract path is checked against specs/identity.yaml.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIdentityClient } from "../../clients/identity.js";
import { loadContract } from "../../lib/contract/index.js";
import { identityRoutes } from "../../mock/sandbox/identity.js";
import { formAction, hiddenFields, ScriptedBrowser } from "./support/browser.js";
import { startTestSandbox, type TestSandbox } from "./support/sandbox.js";

const CLIENT_ID = "demo-app";
const CLIENT_SECRET = "demo-app-secret";
const APP = "http://127.0.0.1:5173/";
const REDIRECT_URI = `${APP}callback`;
const ROUTES = identityRoutes();
const ALICE = { email: "alice.novak@example.org", password: "alice-demo", sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91" };

let sandbox: TestSandbox;
let issuer: string;
let config: oidc.Configuration;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  issuer = sandbox.urls.identity;
  const checked = (url: string, options: oidc.CustomFetchOptions) => sandbox.fetch(url, options as RequestInit);
  config = await oidc.discovery(
    new URL(issuer),
    CLIENT_ID,
    { client_secret: CLIENT_SECRET, redirect_uris: [REDIRECT_URI] },
    oidc.ClientSecretPost(CLIENT_SECRET),
    {
      execute: [oidc.allowInsecureRequests],
      [oidc.customFetch]: checked,
    },
  );
  config[oidc.customFetch] = checked;
});
afterAll(() => sandbox?.stop());

interface Flow {
  callback: URL;
  verifier: string;
  state: string;
  nonce: string;
  browser: ScriptedBrowser;
}

/** Runs the browser part: authorize → sign-in form → submit → redirect back with code and state. */
async function signIn(
  scope: string,
  fields: Record<string, string> = { method: "email", login: ALICE.email, password: ALICE.password },
): Promise<Flow> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  });
  const browser = new ScriptedBrowser(sandbox.fetch, APP);
  const form = await browser.get(url);
  expect(form.response.status).toBe(200);
  expect(form.html).toContain("Continue with e-mail");
  const done = await browser.submit(formAction(form.html, form.url, `value="${fields.method}"`), fields);
  expect(done.url.startsWith(REDIRECT_URI), done.html).toBe(true);
  return { callback: new URL(done.url), verifier, state, nonce, browser };
}

/** An authorize URL with a fresh PKCE challenge whose verifier is thrown away (for requests that never get a code). */
async function authorizeUrl(parameters: Record<string, string>): Promise<URL> {
  const code_challenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());
  return oidc.buildAuthorizationUrl(config, { code_challenge, code_challenge_method: "S256", ...parameters });
}

function exchange(flow: Flow, verifier = flow.verifier) {
  return oidc.authorizationCodeGrant(config, flow.callback, {
    pkceCodeVerifier: verifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
}

describe("identity sandbox with openid-client", () => {
  it("publishes discovery at the contract's paths with S256, client_secret_post and RS256", () => {
    const metadata = config.serverMetadata();
    expect(metadata).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}${ROUTES.authorization}`,
      token_endpoint: `${issuer}${ROUTES.token}`,
      userinfo_endpoint: `${issuer}${ROUTES.userinfo}`,
      jwks_uri: `${issuer}${ROUTES.jwks}`,
      end_session_endpoint: `${issuer}${ROUTES.end_session}`,
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_post"],
    });
    expect(metadata.id_token_signing_alg_values_supported).toContain("RS256");
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(["openid", "profile", "email", "wallets", "offline_access", "quests"]),
    );
  });

  it("advertises no endpoint or feature the contract lacks (oidc-provider's default PAR and DPoP are off)", async () => {
    const metadata = (await (await fetch(`${issuer}${ROUTES.discovery}`)).json()) as Record<string, unknown>;
    const contractPaths = new Set(
      loadContract("identity")
        .operations()
        .map((operation) => operation.path),
    );
    const endpoints = Object.entries(metadata).filter(([field]) => field.endsWith("_endpoint") || field === "jwks_uri");
    expect(endpoints.length).toBeGreaterThanOrEqual(5);
    for (const [field, url] of endpoints)
      expect(contractPaths.has(new URL(String(url)).pathname), `${field}: ${String(url)}`).toBe(true);
    expect(Object.keys(metadata).filter((field) => /dpop|pushed_authorization/.test(field))).toEqual([]);
  });

  it("completes code + PKCE through the HTML form, exchanges, reads userinfo, refreshes and verifies the id_token", async () => {
    const flow = await signIn("openid profile email wallets offline_access");
    expect(flow.callback.searchParams.get("state")).toBe(flow.state);
    const tokens = await exchange(flow);
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.refresh_token).toBeTruthy();

    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: issuer,
      aud: CLIENT_ID,
      sub: ALICE.sub,
      nonce: flow.nonce,
      tg_id: 482915637,
      tg_username: "alice_novak",
      email: ALICE.email,
    });
    expect(claims.wallets).toEqual([
      expect.objectContaining({ chain: "ton" }),
      expect.objectContaining({ chain: "ethereum" }),
    ]);

    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const verified = await jwtVerify(tokens.id_token!, jwks, { issuer, audience: CLIENT_ID });
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe("RS256");
    expect(verified.payload.sub).toBe(ALICE.sub);

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, ALICE.sub);
    expect(userinfo).toMatchObject({
      iss: issuer,
      aud: CLIENT_ID,
      sub: ALICE.sub,
      name: "Alice Novak",
      tg_id: 482915637,
      email_verified: true,
    });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await oidc.fetchUserInfo(config, refreshed.access_token, ALICE.sub)).sub).toBe(ALICE.sub);
  });

  it("refuses a reused code", async () => {
    const flow = await signIn("openid");
    await exchange(flow);
    await expect(exchange(flow)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a wrong code_verifier", async () => {
    const flow = await signIn("openid");
    await expect(exchange(flow, oidc.randomPKCECodeVerifier())).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("refuses an unregistered redirect_uri with an error page instead of a redirect", async () => {
    const url = await authorizeUrl({ redirect_uri: "http://127.0.0.1:5999/evil", scope: "openid" });
    const response = await sandbox.fetch(url, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toMatch(/redirect_uri/);
  });
});

describe("identity sandbox: what it refuses", () => {
  it("requires PKCE, and issues no refresh token without offline_access", async () => {
    const withoutPkce = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: "openid",
      state: "s1",
    });
    const refused = await sandbox.fetch(withoutPkce, { redirect: "manual" });
    expect(refused.status).toBe(302);
    const location = new URL(refused.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("state")).toBe("s1");

    const tokens = await exchange(await signIn("openid email"));
    expect(tokens.refresh_token).toBeUndefined();
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, ALICE.sub);
    expect(Object.keys(userinfo).sort()).toEqual(["aud", "email", "email_verified", "iss", "sub"]);
  });

  it("answers an unsupported scope with an invalid_scope redirect", async () => {
    const url = await authorizeUrl({ redirect_uri: REDIRECT_URI, scope: "openid payments", state: "s2" });
    const response = await sandbox.fetch(url, { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: "invalid_scope",
      error_description: "Unsupported scope: payments",
      state: "s2",
    });
  });

  it("refuses PKCE plain, and a challenge without a method (RFC 7636 §4.3 reads it as plain): S256 only", async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    for (const method of ["plain", undefined]) {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT_URI,
        scope: "openid",
        state: "s3",
        code_challenge: verifier,
        ...(method ? { code_challenge_method: method } : {}),
      });
      const response = await sandbox.fetch(url, { redirect: "manual" });
      expect(response.status, String(method)).toBe(302);
      const location = new URL(response.headers.get("location")!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect(location.searchParams.get("error"), String(method)).toBe("invalid_request");
      expect(location.searchParams.get("code")).toBeNull();
    }
  });

  it("checks the client secret", async () => {
    const flow = await signIn("openid");
    const response = await sandbox.fetch(`${issuer}${ROUTES.token}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: flow.callback.searchParams.get("code")!,
        redirect_uri: REDIRECT_URI,
        client_id: CLIENT_ID,
        client_secret: "wrong",
        code_verifier: flow.verifier,
      }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
  });

  it("refuses client authentication by HTTP Basic: discovery and the contract offer client_secret_post only", async () => {
    const flow = await signIn("openid");
    const fields = {
      grant_type: "authorization_code",
      code: flow.callback.searchParams.get("code")!,
      redirect_uri: REDIRECT_URI,
      code_verifier: flow.verifier,
    };
    const basic = `Basic ${btoa(`${CLIENT_ID}:${CLIENT_SECRET}`)}`;
    const viaBasic = await sandbox.fetch(`${issuer}${ROUTES.token}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic },
      body: new URLSearchParams(fields),
    });
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.headers.get("www-authenticate")).toMatch(/^Basic realm=.*error="invalid_client"/);
    expect(await viaBasic.json()).toEqual({
      error: "invalid_client",
      error_description: expect.stringContaining("client_secret_post"),
    });
    // The code was not spent on the refused request: the same exchange with the credentials in the body works.
    const tokens = await exchange(flow);
    expect(tokens.access_token).toBeTruthy();
  });

  it("offers the seeds' sign-in methods: messenger and wallet sign in the demo account, a wrong password does not", async () => {
    const viaMessenger = await exchange(await signIn("openid profile", { method: "messenger", login: "alice_novak" }));
    expect(viaMessenger.claims()?.sub).toBe(ALICE.sub);
    const viaWallet = await exchange(
      await signIn("openid", { method: "wallet", login: "0x8ba1f109551bD432803012645Ac136ddd64DBA72" }),
    );
    expect(viaWallet.claims()?.sub).toBe(ALICE.sub);

    const browser = new ScriptedBrowser(sandbox.fetch, APP);
    const url = await authorizeUrl({ redirect_uri: REDIRECT_URI, scope: "openid" });
    const form = await browser.get(url);
    for (const label of ["messenger", "blockchain wallet", "e-mail", "identity provider A", "identity provider B"])
      expect(form.html).toContain(label);
    const wrong = await browser.submit(formAction(form.html, form.url, 'value="email"'), {
      method: "email",
      login: ALICE.email,
      password: "nope",
    });
    expect(wrong.response.status).toBe(401);
    expect(wrong.html).toContain("wrong password");

    const cancelled = await browser.submit(formAction(form.html, form.url, "/abort"), {});
    expect(new URL(cancelled.url).searchParams.get("error")).toBe("access_denied");
  });
});

describe("identity sandbox: sign-in methods, logout and clients", () => {
  it("logs out through RP-initiated logout back to the registered post_logout_redirect_uri", async () => {
    const flow = await signIn("openid");
    const tokens = await exchange(flow);
    const logoutUrl = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: APP,
      state: "bye",
    });
    const prompt = await flow.browser.get(logoutUrl);
    expect(prompt.response.status).toBe(200);
    const done = await flow.browser.submit(formAction(prompt.html, prompt.url, "op.logoutForm"), {
      ...hiddenFields(prompt.html, "op.logoutForm"),
      logout: "yes",
    });
    expect(done.url).toBe(`${APP}?state=bye`);
  });

  it("accepts the form-POST variant of logout and refuses an unregistered post_logout_redirect_uri with a page", async () => {
    const flow = await signIn("openid");
    const tokens = await exchange(flow);
    const logout = `${issuer}${ROUTES.end_session}`;
    const prompt = await sandbox.fetch(logout, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        id_token_hint: tokens.id_token!,
        client_id: CLIENT_ID,
        post_logout_redirect_uri: APP,
        state: "q7",
      }),
    });
    expect(prompt.status).toBe(200);
    expect(await prompt.text()).toContain(`action="${issuer}${ROUTES.end_session}/confirm"`);

    const refused = await sandbox.fetch(
      `${logout}?${new URLSearchParams({ client_id: CLIENT_ID, post_logout_redirect_uri: "http://127.0.0.1:5999/" })}`,
      { redirect: "manual" },
    );
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await refused.text()).toContain("Sign-out error");
  });

  it("judges an empty client_id= the same by GET and by form POST: as omitted (RFC 6749 §3.1)", async () => {
    const logout = `${issuer}${ROUTES.end_session}`;
    const byGet = await sandbox.fetch(`${logout}?client_id=`, { redirect: "manual" });
    const byPost = await sandbox.fetch(logout, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "client_id=",
    });
    expect(byGet.status).toBe(200);
    expect(byPost.status).toBe(byGet.status);
    // oidc-provider's logout confirmation page (the contract's LogoutPage), the same both ways.
    const pageOf = async (response: Response) => (await response.text()).replace(/value="[^"]*"/g, "");
    expect(await pageOf(byPost)).toBe(await pageOf(byGet));
  });

  it("works with the package's own identity client as well", async () => {
    const client = await createIdentityClient({
      issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: REDIRECT_URI,
      allowInsecureRequests: true,
    });
    const request = await client.createAuthorizationRequest(["openid", "profile", "offline_access"]);
    const browser = new ScriptedBrowser(sandbox.fetch, APP);
    const form = await browser.get(request.url);
    const done = await browser.submit(formAction(form.html, form.url, 'value="email"'), {
      method: "email",
      login: ALICE.email,
      password: ALICE.password,
    });
    const tokens = await client.handleCallback(done.url, request);
    expect(tokens.claims).toMatchObject({ sub: ALICE.sub, preferred_username: "alice" });
    expect((await client.userInfo(tokens.accessToken, ALICE.sub)).tg_username).toBe("alice_novak");
    expect((await client.refresh(tokens.refreshToken!)).accessToken).toBeTruthy();
    expect(sandbox.fetch.checked).toBeGreaterThan(20);
  });
});
