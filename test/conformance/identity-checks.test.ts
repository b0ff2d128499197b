// The identity checks' rules (conformance/judge/identity-*.ts) judge what was sent and received, with no run and no
// server: each passes what the standards allow and names the rule a provider broke. The flows that feed them are
// proven end to end by identity.test.ts, identity-faults.test.ts and identity-stock-provider.test.ts.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { stateEchoed } from "../../conformance/judge/identity-authorization.js";
import { discoveryPkceMethods, jwksShape, jwksUniqueKids } from "../../conformance/judge/identity-discovery.js";
import { atHash, refreshTokenOfflineAccess, tokenError } from "../../conformance/judge/identity-tokens.js";
import type { Authorization } from "../../conformance/judge/identity-words.js";
import type { Exchange } from "../../conformance/send/transport.js";

const exchange = (status: number, json: unknown): Exchange => ({
  request: { method: "POST", url: "http://127.0.0.1/token", headers: {} },
  response: { status, headers: {}, text: JSON.stringify(json), json, isJson: true, setCookies: [] },
  durationMs: 1,
  receivedAt: 0,
});

describe("identity checks, pure", () => {
  it("state_echoed: the state sent, unchanged, or it says what came back", () => {
    expect(stateEchoed("s1", new URLSearchParams({ code: "c", state: "s1" }))).toBe("");
    expect(stateEchoed("s1", new URLSearchParams({ code: "c" }))).toContain("with a code) without the state sent");
    expect(stateEchoed("s1", new URLSearchParams({ error: "access_denied" }))).toContain("with error access_denied");
    expect(stateEchoed("s1", new URLSearchParams({ code: "c", state: "s2" }))).toContain("another state");
  });

  it("pkce_s256_only on discovery: no PKCE and no S256 fail; plain beside S256 breaks only the assumption", () => {
    expect(discoveryPkceMethods(["S256"])).toEqual({ problem: "", assumed: false });
    expect(discoveryPkceMethods(["S256", "plain"]).assumed).toBe(true);
    expect(discoveryPkceMethods(undefined)).toMatchObject({
      assumed: false,
      problem: expect.stringContaining("no PKCE"),
    });
    expect(discoveryPkceMethods(["plain"]).problem).toContain("without S256");
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
});
