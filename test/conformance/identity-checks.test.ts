// The identity checks' rules (conformance/judge/identity-*.ts) judge what was sent and received, with no run and no
// server: each passes what the standards allow and names the rule a provider broke. The flows that feed them are
// proven end to end by identity.test.ts, identity-faults.test.ts and identity-stock-provider.test.ts.
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { arrivedAt, nearMisses } from "../../conformance/identity/near-miss.js";
import {
  authorizationByPost,
  codeEntropy,
  issReturned,
  sameSession,
  stateEchoed,
} from "../../conformance/judge/identity-authorization.js";
import { discoveryPkceMethods, jwksShape, jwksUniqueKids } from "../../conformance/judge/identity-discovery.js";
import type { CheckNote } from "../../conformance/judge/assumptions.js";
import {
  atHash,
  codeExchangedWithoutSecret,
  codeReplayedLater,
  expiresInMissing,
  idTokenClaims,
  refreshTokenClientBound,
  refreshTokenOfflineAccess,
  tokenError,
} from "../../conformance/judge/identity-tokens.js";
import type { Authorization } from "../../conformance/model/identity-facts.js";
import type { Exchange } from "../../conformance/model/exchange.js";

const exchange = (status: number, json: unknown): Exchange => ({
  request: { method: "POST", url: "http://127.0.0.1/token", headers: {} },
  response: { status, headers: {}, text: JSON.stringify(json), json, isJson: true, setCookies: [] },
  durationMs: 1,
  receivedAt: 0,
});

describe("identity checks, pure", () => {
  it("authorization_by_post: a POST refused at once is a refusal; taken, it must end in a code that exchanges", () => {
    const navigation = (pages: number, status: number) => ({ pages, lastPage: { url: "u", status, text: "t" } });
    const failed = (pages: number, status: number): Authorization => ({
      kind: "failed",
      failure: "stopped",
      navigation: navigation(pages, status),
      exchange: exchange(status, {}),
    });
    expect(authorizationByPost(failed(0, 405), undefined)).toEqual({
      problem: "",
      refusal:
        'the authorization endpoint refused an authorization request by POST with status 405, on a page saying "t"',
    });
    // A sign-in page shown and submitted, then no way back: the POST was taken, and broken.
    expect(authorizationByPost(failed(1, 200), undefined).problem).toMatch(/got stopped instead of a code/);
    expect(authorizationByPost(failed(0, 500), undefined).problem).toMatch(/server error \(status 500\)/);
    const code: Authorization = {
      kind: "code",
      code: "c",
      scope: "openid",
      redirectUri: "http://127.0.0.1/cb",
      navigation: { pages: 1 },
      exchange: exchange(302, {}),
    };
    expect(authorizationByPost(code, { exchange: exchange(400, { error: "invalid_grant" }) }).problem).toMatch(
      /the code of an authorization request by POST was refused/,
    );
    const tokens = { access_token: "a" };
    expect(authorizationByPost(code, { exchange: exchange(200, tokens), tokens })).toEqual({
      problem: "",
      refusal: "",
    });
  });

  it("refresh_token_client_bound: refused passes, accepted fails, invalid_client could not run", () => {
    const attempt: Authorization = {
      kind: "failed",
      failure: "-",
      navigation: { pages: 0 },
      exchange: exchange(0, {}),
    };
    const issued = { exchange: exchange(200, {}), tokens: { access_token: "a", refresh_token: "r" } };
    const run = (other: Exchange) => ({ attempt, exchanged: issued, byOtherClient: other });
    expect(refreshTokenClientBound(run(exchange(400, { error: "invalid_grant" })), true)).toMatchObject({
      outcome: "pass",
    });
    expect(refreshTokenClientBound(run(exchange(200, { access_token: "b" })), true)).toMatchObject({
      outcome: "fail",
    });
    expect(refreshTokenClientBound(run(exchange(401, { error: "invalid_client" })), true)).toMatchObject({
      decision: "cannot run",
    });
    expect(refreshTokenClientBound(run(exchange(400, {})), false)).toMatchObject({ decision: "skipped" });
    expect(refreshTokenClientBound({ attempt }, true)).toMatchObject({ decision: "skipped" });
  });

  it("state_echoed: the state sent, unchanged, or it says what came back", () => {
    expect(stateEchoed("s1", new URLSearchParams({ code: "c", state: "s1" }))).toBe("");
    expect(stateEchoed("s1", new URLSearchParams({ code: "c" }))).toContain("with a code) without the state sent");
    expect(stateEchoed("s1", new URLSearchParams({ error: "access_denied" }))).toContain("with error access_denied");
    expect(stateEchoed("s1", new URLSearchParams({ code: "c", state: "s2" }))).toContain("another state");
  });

  it("pkce_s256_only on discovery: absent passes (RFC 8414 §2: OPTIONAL), no S256 fails, plain beside S256 breaks only the assumption", () => {
    expect(discoveryPkceMethods(["S256"])).toEqual({ problem: "", assumed: false });
    expect(discoveryPkceMethods(["S256", "plain"]).assumed).toBe(true);
    expect(discoveryPkceMethods(undefined)).toEqual({ problem: "", assumed: false });
    expect(discoveryPkceMethods("S256").problem).toContain("not an array");
    expect(discoveryPkceMethods(["plain"]).problem).toContain("without S256");
  });

  it("near misses of a redirect address: one difference each, never the port, no subdomain of an IP literal", () => {
    const loopback = nearMisses("http://127.0.0.1:5173/callback").map((m) => m.uri);
    expect(loopback).toEqual([
      "http://127.0.0.1:5173/callback/conformance",
      "http://127.0.0.1:5173/conformance-other-path",
      "http://127.0.0.1:5173/callback?conformance=altered",
    ]);
    expect(nearMisses("https://app.example.org/cb?x=1").map((m) => m.uri)).toEqual([
      "https://conformance.app.example.org/cb?x=1",
      "https://app.example.org/cb/conformance?x=1",
      "https://app.example.org/conformance-other-path?x=1",
      "https://app.example.org/cb?x=1&conformance=altered",
    ]);
    const extraQuery = "http://127.0.0.1:5173/callback?conformance=altered";
    expect(arrivedAt(new URL(`${extraQuery}&code=c&state=s`), extraQuery)).toBe(true);
    // Sent back to the registered address (with an error, say) is not following the near miss.
    expect(arrivedAt(new URL("http://127.0.0.1:5173/callback?error=invalid_request"), extraQuery)).toBe(false);
    expect(arrivedAt(undefined, extraQuery)).toBe(false);
  });

  it("jwks_shape and jwks_unique_kids", () => {
    const key = { kty: "RSA", n: "AQAB", e: "AQAB", kid: "k1", use: "sig" };
    expect(jwksShape([key])).toBe("");
    expect(jwksShape([{ ...key, n: undefined }])).toContain("lacks n");
    expect(jwksShape([{ ...key, d: "secret" }])).toContain("private key members");
    expect(jwksUniqueKids([key, { ...key }])).toContain("kid k1 is used by more than one key");
    expect(jwksUniqueKids([key, { ...key, kid: undefined }])).toContain("not every one has a kid");
  });

  it("token_errors: the RFC 6749 §5.2 error code, whatever 4xx carries it", () => {
    expect(tokenError("an unknown code", exchange(400, { error: "invalid_grant" }))).toBe("");
    expect(tokenError("a wrong client_secret", exchange(401, { error: "invalid_client" }))).toBe("");
    expect(tokenError("a wrong client_secret", exchange(400, { error: "invalid_grant" }))).toBe(
      "a wrong client_secret got status 400 invalid_grant, expected 400 or 401 invalid_client (RFC 6749 §5.2)",
    );
  });

  it('id_token claims: aud as an array passes the schema; email "" breaks only the x-assumption (a warning, a failure under --strict)', () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: "http://127.0.0.1", sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91", exp: now + 60, iat: now };
    const notes: CheckNote[] = [];
    const lenient = { note: (note: CheckNote) => void notes.push(note) };
    expect(idTokenClaims({ ...claims, aud: ["demo-app"] }, undefined, lenient)).toBe("");
    expect(idTokenClaims({ ...claims, aud: "demo-app", email: "" }, undefined, lenient)).toBe("");
    expect(notes).toEqual([
      expect.objectContaining({ kind: "warning", assumption: expect.stringContaining("our reading") }),
    ]);
    expect(idTokenClaims({ ...claims, aud: "demo-app", email: "" }, undefined, { strict: true })).toMatch(
      /email.*x-assumption, failing under --strict/,
    );
    expect(idTokenClaims({ ...claims, aud: "demo-app", tg_id: "1" }, undefined, lenient)).toMatch(/tg_id/);
  });

  it("client_authentication_required: any 4xx without a token is a refusal", () => {
    expect(codeExchangedWithoutSecret(exchange(401, { error: "invalid_client" }))).toBe("");
    expect(codeExchangedWithoutSecret(exchange(200, { access_token: "at" }))).toMatch(/RFC 6749 §3.2.1/);
  });

  it("id_token_at_hash: the left half of the access token's SHA-256; absent passes", () => {
    const tokens = { access_token: "at_example" };
    const digest = createHash("sha256").update(tokens.access_token).digest();
    const right = digest.subarray(0, 16).toString("base64url");
    const response = exchange(200, tokens);
    expect(atHash(tokens, { at_hash: right }, response)?.outcome).toBe("pass");
    expect(atHash(tokens, {}, response)?.outcome).toBe("pass");
    expect(atHash(tokens, { at_hash: "wrong" }, response)?.outcome).toBe("fail");
    expect(atHash(tokens, undefined, response)).toBeUndefined();
  });

  it("refresh_token_offline_access: skipped when offline_access was not granted, failed when granted without one", () => {
    const attempt = { kind: "code" } as Authorization;
    const withScope = (scope: string) => {
      const response = exchange(200, { access_token: "at", scope });
      return { exchange: response, tokens: { access_token: "at", scope } };
    };
    expect(refreshTokenOfflineAccess({ attempt, exchanged: withScope("openid") })).toMatchObject({
      about: "check",
      decision: "skipped",
    });
    expect(refreshTokenOfflineAccess({ attempt, exchanged: withScope("openid offline_access") })).toMatchObject({
      outcome: "fail",
      message: expect.stringContaining("no refresh token was issued"),
    });
  });

  it("authorization_code_entropy: 128 bits and more than 96 bits of entropy, as the suite measures; never the code", () => {
    expect(codeEntropy(randomBytes(32).toString("base64url"))).toBe("");
    expect(codeEntropy(randomBytes(16).toString("hex"))).toBe("");
    expect(codeEntropy("abcdefghijkl")).toMatch(
      /^the authorization code is 96 bits long, less than 128; it has about 43 bits/,
    );
    // Long enough, but one character repeated: no entropy at all.
    const regular = codeEntropy("a".repeat(40));
    expect(regular).toMatch(/^it has about 0 bits of entropy, not more than 96 \(RFC 6749 §10.10/);
    expect(regular).not.toContain("aaaa");
  });

  it("authorization_response_iss: the issuer when there; required only where RFC 9207 is advertised", () => {
    const issuer = "https://id.example.org";
    const back = (params: Record<string, string>) => new URLSearchParams({ code: "c", ...params });
    expect(issReturned(back({ iss: issuer }), { issuer, advertised: true })).toBe("");
    expect(issReturned(back({}), { issuer, advertised: false })).toBe("");
    expect(issReturned(back({}), { issuer, advertised: true })).toMatch(/carries no iss.*RFC 9207 §2: MUST/);
    expect(issReturned(back({ iss: "https://evil.example" }), { issuer, advertised: false })).toMatch(
      /iss is https:\/\/evil.example, not the issuer https:\/\/id.example.org/,
    );
  });

  it("token_expires_in: absent is the problem; its type is the schema's", () => {
    expect(expiresInMissing({ access_token: "at", expires_in: 3600 })).toBe("");
    expect(expiresInMissing({ access_token: "at", expires_in: "soon" })).toBe("");
    expect(expiresInMissing({ access_token: "at" })).toMatch(/no expires_in \(RFC 6749 §5.1: RECOMMENDED\)/);
  });

  it("prompt_none and max_age_10000: the first sign-in's sub and auth_time, or no auth_time after that sign-in", () => {
    const first = { sub: "u1", authTime: 1000, signedInBy: 1002 };
    const what = "prompt=none";
    expect(sameSession(what, undefined)).toBe("");
    expect(sameSession(what, { first, claims: { sub: "u1", auth_time: 1000 } })).toBe("");
    expect(sameSession(what, { first, claims: { sub: "u1" } })).toBe("");
    expect(sameSession(what, { first, claims: { sub: "u2", auth_time: 1000 } })).toMatch(/has sub u2, the first/);
    expect(sameSession(what, { first, claims: { sub: "u1", auth_time: 1005 } })).toMatch(
      /auth_time 1005, the first sign-in's 1000, though no new sign-in happened/,
    );
    expect(sameSession(what, { first })).toMatch(/carries no id_token/);
    // The first id_token without auth_time: the later one may not be after the first sign-in ended (1 s of clock).
    const untimed = { ...first, authTime: undefined };
    expect(sameSession(what, { first: untimed, claims: { sub: "u1", auth_time: 1003 } })).toBe("");
    expect(sameSession(what, { first: untimed, claims: { sub: "u1", auth_time: 1004 } })).toMatch(
      /auth_time 1004, after the first sign-in \(done by 1002\)/,
    );
  });

  it("code_reuse_30_seconds: accepted fails (a MUST); another refusal than 400 invalid_grant only warns", () => {
    expect(codeReplayedLater(exchange(400, { error: "invalid_grant" }), 31_000)).toEqual({
      problem: "",
      notInvalidGrant: "",
    });
    expect(codeReplayedLater(exchange(200, { access_token: "at" }), 31_000).problem).toMatch(
      /accepted again 31 seconds after its first exchange .*MUST be denied/,
    );
    const forbidden = codeReplayedLater(exchange(403, { error: "access_denied" }), 31_000);
    expect(forbidden.problem).toBe("");
    expect(forbidden.notInvalidGrant).toMatch(/got status 403 access_denied, not 400 invalid_grant/);
    expect(codeReplayedLater(exchange(401, { error: "invalid_grant" }), 31_000).notInvalidGrant).toMatch(/status 401/);
  });
});
