// The identity client against a local provider with a real signing key: the code exchange with PKCE and
// client_secret_post, refresh, id_token verification (signature, audience, issuer, expiry, nonce), OAuth error codes
// in IdentityApiError, and the optional request timeout. The provider's paths come from the contract.
import { createHash } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createIdentityClient, IdentityApiError } from "../../clients/identity.js";
import { loadContract, type OperationId } from "../../lib/contract/index.js";
import { sendJson } from "../support/http.js";
import { CLIENT_SECRET, expectNoSecrets, serve } from "./support.js";

const path = (operationId: OperationId<"identity">) => loadContract("identity").operation(operationId).path;

const REDIRECT = "http://127.0.0.1:5173/callback";
let url = "";
let mint: (claims: Record<string, unknown>) => Promise<string>;
let mintWithOtherKey: (claims: Record<string, unknown>) => Promise<string>;
// Per code: what the authorize step would have bound to it.
const codes = new Map<string, { nonce: string; challenge: string }>();
let tamper: (claims: Record<string, unknown>) => Record<string, unknown> = (c) => c;
let useOtherKey = false;
const tokenRequests: URLSearchParams[] = [];

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const other = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  mint = (claims) => new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1" }).sign(privateKey);
  mintWithOtherKey = (claims) =>
    new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1" }).sign(other.privateKey);
  url = await serve(async (request, raw, response) => {
    const pathname = new URL(request.url!, "http://x").pathname;
    if (pathname === path("getOpenIdConfiguration")) {
      return sendJson(response, 200, {
        issuer: url,
        authorization_endpoint: `${url}${path("authorize")}`,
        token_endpoint: `${url}${path("exchangeToken")}`,
        userinfo_endpoint: `${url}${path("getUserInfo")}`,
        jwks_uri: `${url}${path("getJwks")}`,
        end_session_endpoint: `${url}${path("logout")}`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
      });
    }
    if (pathname === path("getJwks")) return sendJson(response, 200, { keys: [jwk] });
    if (pathname === path("getUserInfo")) {
      // "Bearer slow" is answered late: the timeout test's provider that hangs.
      if (request.headers.authorization === "Bearer slow") await new Promise((resolve) => setTimeout(resolve, 1500));
      return sendJson(response, 200, { sub: "user-1", iss: url, aud: "demo-app", tg_id: 42 });
    }
    if (pathname === path("exchangeToken")) {
      const form = new URLSearchParams(raw.toString());
      tokenRequests.push(form);
      if (form.get("client_secret") !== CLIENT_SECRET) return sendJson(response, 401, { error: "invalid_client" });
      const now = Math.floor(Date.now() / 1000);
      let nonce: string | undefined;
      if (form.get("grant_type") === "authorization_code") {
        const bound = codes.get(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        if (!bound || createHash("sha256").update(verifier).digest("base64url") !== bound.challenge) {
          return sendJson(response, 400, { error: "invalid_grant" });
        }
        nonce = bound.nonce;
      }
      const claims = tamper({
        iss: url,
        aud: "demo-app",
        sub: "user-1",
        iat: now,
        exp: now + 300,
        ...(nonce ? { nonce } : {}),
      });
      const idToken = await (useOtherKey ? mintWithOtherKey : mint)(claims);
      return sendJson(response, 200, {
        access_token: "at-1",
        token_type: "Bearer",
        expires_in: 300,
        refresh_token: "rt-1",
        id_token: idToken,
        scope: "openid offline_access",
      });
    }
    sendJson(response, 404, { error: "not_found" });
  });
});

afterEach(() => {
  tamper = (c) => c;
  useOtherKey = false;
});

async function signIn(): Promise<ReturnType<Awaited<ReturnType<typeof createIdentityClient>>["handleCallback"]>> {
  const identity = await createIdentityClient({
    issuer: url,
    clientId: "demo-app",
    clientSecret: CLIENT_SECRET,
    redirectUri: REDIRECT,
    allowInsecureRequests: true,
  });
  const request = await identity.createAuthorizationRequest(["openid", "offline_access"]);
  const code = `code-${codes.size}`;
  codes.set(code, { nonce: request.nonce, challenge: request.url.searchParams.get("code_challenge")! });
  return identity.handleCallback(`${REDIRECT}?code=${code}&state=${request.state}`, request);
}

describe("identity: id_token verification with a real key", () => {
  it("completes the code exchange with PKCE and client_secret_post, verifying the id_token", async () => {
    const tokens = await signIn();
    expect(tokens.claims?.sub).toBe("user-1");
    const form = tokenRequests.at(-1)!;
    expect(form.get("client_id")).toBe("demo-app");
    expect(form.get("redirect_uri")).toBe(REDIRECT);
    expect(form.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
  });

  it("refreshes and verifies the new id_token", async () => {
    const identity = await createIdentityClient({
      issuer: url,
      clientId: "demo-app",
      clientSecret: CLIENT_SECRET,
      redirectUri: REDIRECT,
      allowInsecureRequests: true,
    });
    const tokens = await identity.refresh("rt-1");
    expect(tokens.accessToken).toBe("at-1");
    expect(tokens.claims?.iss).toBe(url);
  });

  it.each([
    ["a signature by another key", () => (useOtherKey = true)],
    ["another audience", () => (tamper = (c) => ({ ...c, aud: "someone-else" }))],
    ["another issuer", () => (tamper = (c) => ({ ...c, iss: "http://127.0.0.1:1" }))],
    ["an expired token", () => (tamper = (c) => ({ ...c, exp: Math.floor(Date.now() / 1000) - 3600 }))],
    ["another nonce", () => (tamper = (c) => ({ ...c, nonce: "replayed" }))],
  ])("refuses an id_token with %s", async (_what, arrange) => {
    arrange();
    const error = await signIn().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expectNoSecrets(error);
  });
});

describe("identity: OAuth errors, timeout and the client secret", () => {
  it("puts the provider's OAuth error code in the message of IdentityApiError", async () => {
    const identity = await createIdentityClient({
      issuer: url,
      clientId: "demo-app",
      clientSecret: CLIENT_SECRET,
      redirectUri: REDIRECT,
      allowInsecureRequests: true,
    });
    const request = await identity.createAuthorizationRequest(["openid"]);
    const error = await identity
      .handleCallback(`${REDIRECT}?code=never-issued&state=${request.state}`, request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdentityApiError);
    expect(error).toMatchObject({ code: "invalid_grant", status: 400 });
    expect((error as Error).message).toMatch(/^invalid_grant \(code exchange, HTTP 400\)$/);
    const denied = await identity
      .handleCallback(
        `${REDIRECT}?error=access_denied&error_description=The+user+said+no&state=${request.state}`,
        request,
      )
      .catch((e: unknown) => e);
    expect((denied as Error).message).toBe("access_denied: The user said no (code exchange)");
    const wrongSecret = await createIdentityClient({
      issuer: url,
      clientId: "demo-app",
      clientSecret: "not-the-secret",
      redirectUri: REDIRECT,
      allowInsecureRequests: true,
    });
    const unauthorized = await wrongSecret.refresh("rt-1").catch((e: unknown) => e);
    expect((unauthorized as Error).message).toBe("invalid_client (refresh, HTTP 401)");
    expectNoSecrets(error);
  });

  it("times a request out only when asked to (the timeout option, in seconds)", async () => {
    const options = {
      issuer: url,
      clientId: "demo-app",
      clientSecret: CLIENT_SECRET,
      redirectUri: REDIRECT,
      allowInsecureRequests: true,
    };
    const impatient = await createIdentityClient({ ...options, timeout: 0.2 });
    await expect(impatient.userInfo("slow", "user-1")).rejects.toThrow(/timed out/);
    const patient = await createIdentityClient(options);
    await expect(patient.userInfo("slow", "user-1")).resolves.toMatchObject({ sub: "user-1", tg_id: 42 });
  });

  it("sends the client secret only in the token request body", async () => {
    await signIn();
    expect(tokenRequests.at(-1)!.get("client_secret")).toBe(CLIENT_SECRET);
  });
});
