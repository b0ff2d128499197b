// Identity API (OpenID Connect provider): operations, security schemes, recorded gaps and the coherence of the
// examples across operations. Payload checks are in identity-payloads-*.test.ts.
import { createHash, createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findOperation, listOperations, resolvePointer } from "../support/bundle-nodes.js";
import {
  API,
  codeGrantExample,
  decodeJwtPart,
  discoveryExample,
  doc,
  expectValid,
  idTokenClaimsExample,
  jwksExample,
  parameter,
  pathOf,
  refreshGrantExample,
  schemas,
  tokenRequest,
  tokensExample,
  userInfoExample,
} from "./support/identity.js";

describe("identity: structure", () => {
  it("has exactly the eight operations, on the paths the discovery example and the security schemes name", () => {
    const ops = listOperations(API).map((op) => `${op.operationId} ${op.method.toUpperCase()}`);
    expect(ops.sort()).toEqual(
      [
        "authorize GET",
        "exchangeToken POST",
        "getJwks GET",
        "getOpenIdConfiguration GET",
        "getUserInfo GET",
        "getUserInfoByPost POST",
        "logout GET",
        "logoutWithForm POST",
      ].sort(),
    );
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(listOperations(API).map((op) => op.path))].sort());
    expect(Object.keys(doc.paths)).toHaveLength(6);
    expect(pathOf("logoutWithForm")).toBe(pathOf("logout"));
    expect(pathOf("getUserInfoByPost")).toBe(pathOf("getUserInfo"));
  });

  it("tags every operation with one of the five declared tags", () => {
    const expected: Record<string, string> = {
      getOpenIdConfiguration: "discovery",
      getJwks: "discovery",
      authorize: "authorization",
      exchangeToken: "tokens",
      getUserInfo: "userinfo",
      getUserInfoByPost: "userinfo",
      logout: "session",
      logoutWithForm: "session",
    };
    expect(doc.tags.map((t: any) => t.name).sort()).toEqual([
      "authorization",
      "discovery",
      "session",
      "tokens",
      "userinfo",
    ]);
    for (const op of listOperations(API)) expect(op.operation.tags).toEqual([expected[op.operationId]]);
  });

  it("lists the mock, the sandbox and the live server with the id_url variable", () => {
    expect(doc.servers.map((s: any) => s.url)).toEqual(["{id_url}", "http://127.0.0.1:4010", "http://127.0.0.1:4020"]);
    expect(doc.servers[0].variables.id_url.default).toBe("http://127.0.0.1:4020");
  });

  it("requires a bearer token with the openid scope only on userinfo; every other endpoint is public and says why", () => {
    for (const op of listOperations(API)) {
      if (op.operationId === "getUserInfo" || op.operationId === "getUserInfoByPost") {
        expect(op.operation.security).toEqual([{ oauth2: ["openid"] }, { openIdConnect: ["openid"] }]);
      } else {
        expect(op.operation.security, op.operationId).toEqual([]);
        expect(op.operation.description, op.operationId).toMatch(/Public.*`security: \[\]` because/s);
      }
    }
  });
});

describe("identity: structure", () => {
  it("declares the oauth2 and openIdConnect schemes with the six scopes and manual registration", () => {
    const { oauth2, openIdConnect } = doc.components.securitySchemes;
    expect(openIdConnect.type).toBe("openIdConnect");
    expect(openIdConnect.openIdConnectUrl).toBe(pathOf("getOpenIdConfiguration"));
    expect(oauth2.type).toBe("oauth2");
    const flow = oauth2.flows.authorizationCode;
    expect(flow.authorizationUrl).toBe(pathOf("authorize"));
    expect(flow.tokenUrl).toBe(pathOf("exchangeToken"));
    expect(flow.refreshUrl).toBe(pathOf("exchangeToken"));
    expect(Object.keys(flow.scopes).sort()).toEqual([
      "email",
      "offline_access",
      "openid",
      "profile",
      "quests",
      "wallets",
    ]);
    expect(flow.scopes.offline_access).toMatch(/refresh_token/);
    expect(flow.scopes.quests).toMatch(/quest API/);
    for (const text of [oauth2.description, openIdConnect.description, doc.info.description]) {
      expect(text).toMatch(/24 hours/);
      expect(text).toMatch(/redirect_uri/);
    }
  });

  it("references IdTokenClaims as the contentSchema of the id_token", () => {
    const idToken = resolvePointer(API, "/components/schemas/TokenResponse/properties/id_token");
    expect(idToken.contentMediaType).toBe("application/jwt");
    expect(idToken.contentSchema.$ref).toBe("#/components/schemas/IdTokenClaims");
  });

  it("keeps the token request a oneOf of two open grant shapes (RFC 6749 §3.2: unrecognized parameters are ignored)", () => {
    const request = resolvePointer(API, tokenRequest);
    expect(request.oneOf.map((s: any) => s.$ref)).toEqual([
      "#/components/schemas/AuthorizationCodeGrant",
      "#/components/schemas/RefreshTokenGrant",
    ]);
    for (const name of [
      "AuthorizationCodeGrant",
      "RefreshTokenGrant",
      "UserInfo",
      "IdTokenClaims",
      "Wallet",
      "TokenResponse",
      "OpenIdConfiguration",
      "JwkSet",
      "Jwk",
      "OAuthError",
    ]) {
      expect(doc.components.schemas[name].additionalProperties, name).toBe(true);
    }
  });
});

describe("identity: every 'not shown' of the seed is recorded", () => {
  const undocumented = (node: any): string[] => node["x-undocumented"] ?? [];

  it("info carries lifetimes, states and transitions, events, errors, limits and versioning", () => {
    const info = undocumented(doc.info);
    expect(info).toHaveLength(6);
    for (const re of [
      /lifetimes of access_token and refresh_token/,
      /States and transitions/,
      /^Events/,
      /^Errors/,
      /^Limits/,
      /^Versioning/,
    ]) {
      expect(
        info.some((s) => re.test(s)),
        String(re),
      ).toBe(true);
    }
  });

  it("each remaining gap sits where it belongs", () => {
    const s = doc.components.schemas;
    const expectations: Array<[string, string[], RegExp]> = [
      ["Wallet", undocumented(s.Wallet), /verification data attached to each wallet is not shown/],
      ["OpenIdConfiguration", undocumented(s.OpenIdConfiguration), /fields of the discovery document are not shown/],
      ["JwkSet", undocumented(s.JwkSet), /shape of the signing key set is not shown/],
      ["Jwk", undocumented(s.Jwk), /not shown/],
      ["TokenResponse other fields", undocumented(s.TokenResponse), /Other fields of the token response are not shown/],
      [
        "TokenResponse lifetimes",
        undocumented(s.TokenResponse),
        /lifetimes of access_token and refresh_token are not shown/,
      ],
      ["RefreshTokenGrant", undocumented(s.RefreshTokenGrant), /refresh request is not shown/],
      ["code_verifier", undocumented(s.AuthorizationCodeGrant.properties.code_verifier), /PKCE parameters/],
      ["code_challenge", undocumented(parameter("authorize", "code_challenge")), /PKCE parameters/],
      ["code_challenge_method", undocumented(parameter("authorize", "code_challenge_method")), /PKCE parameters/],
      [
        "exchangeToken errors",
        undocumented(findOperation(API, "exchangeToken").operation),
        /does not show any error response/,
      ],
      ["OAuthError", undocumented(s.OAuthError), /does not show its error responses/],
      [
        "logout",
        undocumented(findOperation(API, "logout").operation),
        /method, parameters and response of the logout endpoint are not shown/,
      ],
      [
        "logoutWithForm",
        undocumented(findOperation(API, "logoutWithForm").operation),
        /method, parameters and response of the logout endpoint are not shown/,
      ],
    ];
    for (const [where, entries, re] of expectations)
      expect(
        entries.some((e) => re.test(e)),
        where,
      ).toBe(true);
    for (const status of ["400", "401", "403"]) {
      const response = resolvePointer(API, `${findOperation(API, "getUserInfo").pointer}/responses/${status}`);
      expect(undocumented(response).length, `getUserInfo ${status}`).toBeGreaterThan(0);
    }
  });

  it("every x-undocumented entry is a sentence", () => {
    const entries: string[] = [];
    const walk = (node: any): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (key === "x-undocumented") entries.push(...(value as string[]));
          else walk(value);
        }
      }
    };
    walk(doc);
    expect(entries.length).toBeGreaterThanOrEqual(25);
    for (const entry of entries) expect(entry).toMatch(/^[A-Z].*\.$/);
  });
});

describe("identity: examples are coherent across operations", () => {
  it("the id_token example is an RS256 JWT signed by the JWKS example key, with the IdTokenClaims example as payload", () => {
    const tokens = tokensExample();
    const [header, payload, signature] = (tokens.id_token as string).split(".") as [string, string, string];
    const key = jwksExample().keys[0];
    expect(decodeJwtPart(header)).toEqual({ alg: "RS256", kid: key.kid, typ: "JWT" });
    const claims = decodeJwtPart(payload);
    expect(claims).toEqual(idTokenClaimsExample());
    expectValid(schemas.idToken, claims);
    const publicKey = createPublicKey({ key, format: "jwk" });
    expect(verify("sha256", Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, "base64url"))).toBe(
      true,
    );
    // at_hash is the left half of SHA-256 of the access token (OpenID Connect Core §3.1.3.6).
    const atHash = createHash("sha256").update(tokens.access_token).digest().subarray(0, 16).toString("base64url");
    expect(claims.at_hash).toBe(atHash);
  });

  it("issuer, audience, user and client agree across discovery, tokens, userinfo and the authorize request", () => {
    const config = discoveryExample();
    const claims = idTokenClaimsExample();
    const info = userInfoExample();
    const grant = codeGrantExample();
    expect(config.issuer).toBe("http://127.0.0.1:4010");
    expect(claims.iss).toBe(config.issuer);
    expect(info.iss).toBe(config.issuer);
    expect(claims.aud).toBe("demo-app");
    expect(info.aud).toBe("demo-app");
    expect(grant.client_id).toBe("demo-app");
    expect(info.sub).toBe(claims.sub);
    expect(info.wallets).toEqual(claims.wallets);
    expect(info.wallets.map((w: any) => w.chain)).toEqual(["ton", "ethereum"]);
    expect(grant.redirect_uri).toBe("http://127.0.0.1:5173/callback");
    const redirect = findOperation(API, "authorize").operation.responses["302"].headers.Location.examples
      .authorizationCode.value;
    expect(redirect).toBe(`${grant.redirect_uri}?code=${grant.code}&state=x9Tq2LmZ4vKp`);
    // The PKCE challenge of the authorize example is S256 of the verifier of the token example.
    const challenge = parameter("authorize", "code_challenge").examples.s256Challenge.value;
    expect(createHash("sha256").update(grant.code_verifier).digest().toString("base64url")).toBe(challenge);
    // The refresh example uses the refresh token of the code exchange.
    expect(refreshGrantExample().refresh_token).toBe(tokensExample().refresh_token);
    // Discovery endpoints are the seed's paths under the mock base address.
    expect(config.authorization_endpoint).toBe(`${config.issuer}${pathOf("authorize")}`);
    expect(config.token_endpoint).toBe(`${config.issuer}${pathOf("exchangeToken")}`);
    expect(config.userinfo_endpoint).toBe(`${config.issuer}${pathOf("getUserInfo")}`);
    expect(config.jwks_uri).toBe(`${config.issuer}${pathOf("getJwks")}`);
    expect(config.end_session_endpoint).toBe(`${config.issuer}${pathOf("logout")}`);
  });

  it("the error redirect example follows RFC 6749 §4.1.2.1", () => {
    const header = findOperation(API, "authorize").operation.responses["302"].headers.Location;
    const denied = new URL(header.examples.accessDenied.value);
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("state")).toBe("x9Tq2LmZ4vKp");
    expect(denied.searchParams.get("code")).toBeNull();
  });
});
