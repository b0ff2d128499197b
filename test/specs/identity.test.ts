// Identity API (OpenID Connect provider): structure, quirks and deliberately wrong payloads.
// Every wrong payload is a valid example changed in exactly one way, so it fails only for the intended reason.
import { createHash, createPublicKey, verify } from "node:crypto";
import { describe, it, expect } from "vitest";
import {
  describeErrors,
  findOperation,
  listOperations,
  loadBundle,
  requestSchemaPointer,
  resolvePointer,
  responseSchemaPointer,
  validateAt,
} from "../../lib/openapi.js";

const API = "identity" as const;
const FORM = "application/x-www-form-urlencoded";
const doc = loadBundle(API) as any;

const clone = <T>(value: T): T => structuredClone(value);

function expectValid(pointer: string, data: unknown): void {
  const result = validateAt(API, pointer, data);
  expect(result.valid, describeErrors(result.errors)).toBe(true);
}

function expectInvalid(pointer: string, data: unknown): void {
  expect(validateAt(API, pointer, data).valid).toBe(false);
}

/** Value of a named example of a response body. */
function responseExample(operationId: string, status: string, name: string, mediaType = "application/json"): any {
  const op = findOperation(API, operationId);
  const content = resolvePointer(API, `${op.pointer}/responses/${status}`).content[mediaType];
  const example = content.examples[name];
  if (!example) throw new Error(`${operationId} ${status} has no example ${name}`);
  return clone(example.value);
}

/** Value of a named example of a request body. */
function requestExample(operationId: string, name: string, mediaType: string): any {
  const op = findOperation(API, operationId);
  return clone(op.operation.requestBody.content[mediaType].examples[name].value);
}

/** JSON pointer of the schema of a named parameter of an operation (following component refs). */
function parameterSchemaPointer(operationId: string, name: string): string {
  const op = findOperation(API, operationId);
  const params = op.operation.parameters as any[];
  const index = params.findIndex((_p, i) => resolvePointer(API, `${op.pointer}/parameters/${i}`).name === name);
  if (index < 0) throw new Error(`${operationId} has no parameter ${name}`);
  return `${op.pointer}/parameters/${index}/schema`;
}

function parameter(operationId: string, name: string): any {
  return resolvePointer(API, parameterSchemaPointer(operationId, name).replace(/\/schema$/, ""));
}

function headerSchemaPointer(operationId: string, status: string, header: string): string {
  const op = findOperation(API, operationId);
  return `${op.pointer}/responses/${status}/headers/${header}/schema`;
}

function decodeJwtPart(part: string): any {
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
}

const schemas = {
  idToken: "/components/schemas/IdTokenClaims",
  wallet: "/components/schemas/Wallet",
  jwk: "/components/schemas/Jwk",
};
const userInfo = responseSchemaPointer(API, "getUserInfo", "200");
const tokenResponse = responseSchemaPointer(API, "exchangeToken", "200");
const tokenError400 = responseSchemaPointer(API, "exchangeToken", "400");
const tokenError401 = responseSchemaPointer(API, "exchangeToken", "401");
const tokenRequest = requestSchemaPointer(API, "exchangeToken", FORM);
const discovery = responseSchemaPointer(API, "getOpenIdConfiguration", "200");
const jwks = responseSchemaPointer(API, "getJwks", "200");

const idTokenClaimsExample = (): any => clone(resolvePointer(API, schemas.idToken).examples[0]);
const userInfoExample = (): any => responseExample("getUserInfo", "200", "allClaims");
const tokensExample = (): any => responseExample("exchangeToken", "200", "authorizationCodeTokens");
const codeGrantExample = (): any => requestExample("exchangeToken", "authorizationCodeGrant", FORM);
const refreshGrantExample = (): any => requestExample("exchangeToken", "refreshTokenGrant", FORM);
const discoveryExample = (): any => responseExample("getOpenIdConfiguration", "200", "mockConfiguration");
const jwksExample = (): any => responseExample("getJwks", "200", "rs256Key");
const tokenErrorExample = (): any => responseExample("exchangeToken", "400", "invalidGrant");

describe("identity: structure", () => {
  it("has exactly the seven operations on the provider's paths", () => {
    const ops = listOperations(API).map((op) => `${op.operationId} ${op.method.toUpperCase()} ${op.path}`);
    expect(ops.sort()).toEqual(
      [
        "authorize GET /login/oauth/authorize",
        "exchangeToken POST /api/login/oauth/access_token",
        "getJwks GET /.well-known/jwks",
        "getOpenIdConfiguration GET /.well-known/openid-configuration",
        "getUserInfo GET /api/userinfo",
        "logout GET /api/logout",
        "logoutWithForm POST /api/logout",
      ].sort(),
    );
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/.well-known/openid-configuration",
        "/.well-known/jwks",
        "/login/oauth/authorize",
        "/api/login/oauth/access_token",
        "/api/userinfo",
        "/api/logout",
      ].sort(),
    );
  });

  it("tags every operation with one of the five declared tags", () => {
    const expected: Record<string, string> = {
      getOpenIdConfiguration: "discovery",
      getJwks: "discovery",
      authorize: "authorization",
      exchangeToken: "tokens",
      getUserInfo: "userinfo",
      logout: "session",
      logoutWithForm: "session",
    };
    expect(doc.tags.map((t: any) => t.name).sort()).toEqual(["authorization", "discovery", "session", "tokens", "userinfo"]);
    for (const op of listOperations(API)) expect(op.operation.tags).toEqual([expected[op.operationId]]);
  });

  it("lists the mock, the sandbox and the live server with the id_url variable", () => {
    expect(doc.servers.map((s: any) => s.url)).toEqual(["http://127.0.0.1:4010", "http://127.0.0.1:4020", "{id_url}"]);
    expect(doc.servers[2].variables.id_url.default).toBe("http://127.0.0.1:4020");
  });

  it("requires a bearer token with the openid scope only on userinfo; every other endpoint is public and says why", () => {
    for (const op of listOperations(API)) {
      if (op.operationId === "getUserInfo") {
        expect(op.operation.security).toEqual([{ oauth2: ["openid"] }, { openIdConnect: ["openid"] }]);
      } else {
        expect(op.operation.security, op.operationId).toEqual([]);
        expect(op.operation.description, op.operationId).toMatch(/Public.*`security: \[\]` because/s);
      }
    }
  });

  it("declares the oauth2 and openIdConnect schemes with the six scopes and manual registration", () => {
    const { oauth2, openIdConnect } = doc.components.securitySchemes;
    expect(openIdConnect.type).toBe("openIdConnect");
    expect(openIdConnect.openIdConnectUrl).toBe("/.well-known/openid-configuration");
    expect(oauth2.type).toBe("oauth2");
    const flow = oauth2.flows.authorizationCode;
    expect(flow.authorizationUrl).toBe("/login/oauth/authorize");
    expect(flow.tokenUrl).toBe("/api/login/oauth/access_token");
    expect(flow.refreshUrl).toBe("/api/login/oauth/access_token");
    expect(Object.keys(flow.scopes).sort()).toEqual(["email", "offline_access", "openid", "profile", "quests", "wallets"]);
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
    for (const name of ["AuthorizationCodeGrant", "RefreshTokenGrant", "UserInfo", "IdTokenClaims", "Wallet", "TokenResponse", "OpenIdConfiguration", "JwkSet", "Jwk", "OAuthError"]) {
      expect(doc.components.schemas[name].additionalProperties, name).toBe(true);
    }
  });
});

describe("identity: every 'not shown' of the seed is recorded", () => {
  const undocumented = (node: any): string[] => node["x-undocumented"] ?? [];

  it("info carries lifetimes, states and transitions, events, errors, limits and versioning", () => {
    const info = undocumented(doc.info);
    expect(info).toHaveLength(6);
    for (const re of [/lifetimes of access_token and refresh_token/, /States and transitions/, /^Events/, /^Errors/, /^Limits/, /^Versioning/]) {
      expect(info.some((s) => re.test(s)), String(re)).toBe(true);
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
      ["TokenResponse lifetimes", undocumented(s.TokenResponse), /lifetimes of access_token and refresh_token are not shown/],
      ["RefreshTokenGrant", undocumented(s.RefreshTokenGrant), /refresh request is not shown/],
      ["code_verifier", undocumented(s.AuthorizationCodeGrant.properties.code_verifier), /PKCE parameters/],
      ["code_challenge", undocumented(parameter("authorize", "code_challenge")), /PKCE parameters/],
      ["code_challenge_method", undocumented(parameter("authorize", "code_challenge_method")), /PKCE parameters/],
      ["exchangeToken errors", undocumented(findOperation(API, "exchangeToken").operation), /does not show any error response/],
      ["OAuthError", undocumented(s.OAuthError), /does not show its error responses/],
      ["logout", undocumented(findOperation(API, "logout").operation), /method, parameters and response of the logout endpoint are not shown/],
      ["logoutWithForm", undocumented(findOperation(API, "logoutWithForm").operation), /method, parameters and response of the logout endpoint are not shown/],
    ];
    for (const [where, entries, re] of expectations) expect(entries.some((e) => re.test(e)), where).toBe(true);
    for (const status of ["400", "401", "403"]) {
      const response = findOperation(API, "getUserInfo").operation.responses[status];
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
    expect(verify("sha256", Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, "base64url"))).toBe(true);
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
    const redirect = findOperation(API, "authorize").operation.responses["302"].headers.Location.examples.authorizationCode.value;
    expect(redirect).toBe(`${grant.redirect_uri}?code=${grant.code}&state=x9Tq2LmZ4vKp`);
    // The PKCE challenge of the authorize example is S256 of the verifier of the token example.
    const challenge = parameter("authorize", "code_challenge").examples.s256Challenge.value;
    expect(createHash("sha256").update(grant.code_verifier).digest().toString("base64url")).toBe(challenge);
    // The refresh example uses the refresh token of the code exchange.
    expect(refreshGrantExample().refresh_token).toBe(tokensExample().refresh_token);
    // Discovery endpoints are the seed's paths under the mock base address.
    expect(config.authorization_endpoint).toBe(`${config.issuer}/login/oauth/authorize`);
    expect(config.token_endpoint).toBe(`${config.issuer}/api/login/oauth/access_token`);
    expect(config.userinfo_endpoint).toBe(`${config.issuer}/api/userinfo`);
    expect(config.jwks_uri).toBe(`${config.issuer}/.well-known/jwks`);
    expect(config.end_session_endpoint).toBe(`${config.issuer}/api/logout`);
  });

  it("the error redirect example follows RFC 6749 §4.1.2.1", () => {
    const header = findOperation(API, "authorize").operation.responses["302"].headers.Location;
    const denied = new URL(header.examples.accessDenied.value);
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("state")).toBe("x9Tq2LmZ4vKp");
    expect(denied.searchParams.get("code")).toBeNull();
  });
});

describe("identity: quirk iss and aud are always in userinfo", () => {
  it("marks both with x-quirk and requires them", () => {
    const schema = resolvePointer(API, userInfo);
    expect(schema.required).toEqual(expect.arrayContaining(["sub", "iss", "aud"]));
    expect(schema.properties.iss["x-quirk"]).toMatch(/does not require iss/);
    expect(schema.properties.aud["x-quirk"]).toMatch(/does not require aud/);
  });

  it("accepts the examples, including the openid-only one", () => {
    expectValid(userInfo, userInfoExample());
    expectValid(userInfo, responseExample("getUserInfo", "200", "openidOnly"));
  });

  it.each(["iss", "aud", "sub"])("rejects userinfo without %s", (claim) => {
    const data = userInfoExample();
    delete data[claim];
    expectInvalid(userInfo, data);
  });
});

describe("identity: quirk aud is a single string in the id_token", () => {
  it("marks it with x-quirk", () => {
    expect(resolvePointer(API, `${schemas.idToken}/properties/aud`)["x-quirk"]).toMatch(/single string/);
  });

  it("rejects aud as an array, which OpenID Connect would allow", () => {
    const data = idTokenClaimsExample();
    data.aud = ["demo-app"];
    expectInvalid(schemas.idToken, data);
  });

  it("rejects aud as a number", () => {
    const data = idTokenClaimsExample();
    data.aud = 42;
    expectInvalid(schemas.idToken, data);
  });

  it("rejects aud as a number in userinfo too", () => {
    const data = userInfoExample();
    data.aud = 42;
    expectInvalid(userInfo, data);
  });
});

describe("identity: id_token claims", () => {
  it("accepts the example and further claims (open)", () => {
    expectValid(schemas.idToken, idTokenClaimsExample());
    expectValid(schemas.idToken, { ...idTokenClaimsExample(), acr: "1" });
  });

  it.each(["sub", "iss", "exp", "iat", "aud"])("rejects claims missing %s", (claim) => {
    const data = idTokenClaimsExample();
    delete data[claim];
    expectInvalid(schemas.idToken, data);
  });

  const mutations: Array<[string, (d: any) => void]> = [
    ["tg_id as a string", (d) => (d.tg_id = "482915637")],
    ["email_verified as the string \"true\"", (d) => (d.email_verified = "true")],
    ["sub that is not a UUID", (d) => (d.sub = "alice")],
    ["exp as an ISO date", (d) => (d.exp = "2026-01-01T13:00:00Z")],
    ["email that is not an address", (d) => (d.email = "alice.novak")],
    ["picture that is not a URL", (d) => (d.picture = "alice_novak.jpg")],
    ["wallets entry missing address", (d) => delete d.wallets[0].address],
    ["wallets entry missing chain", (d) => delete d.wallets[1].chain],
    ["wallets as an object", (d) => (d.wallets = d.wallets[0])],
  ];
  it.each(mutations)("rejects %s", (_name, mutate) => {
    const data = idTokenClaimsExample();
    mutate(data);
    expectInvalid(schemas.idToken, data);
  });
});

describe("identity: userinfo claims", () => {
  const mutations: Array<[string, (d: any) => void]> = [
    ["tg_id as a string", (d) => (d.tg_id = "482915637")],
    ["tg_id as a fraction", (d) => (d.tg_id = 4829.5)],
    ["email_verified as the string \"true\"", (d) => (d.email_verified = "true")],
    ["sub that is not a UUID", (d) => (d.sub = "482915637")],
    ["wallets entry missing address", (d) => delete d.wallets[0].address],
    ["wallets entry missing chain", (d) => delete d.wallets[0].chain],
    ["wallets entry with a numeric address", (d) => (d.wallets[1].address = 1)],
  ];
  it.each(mutations)("rejects %s", (_name, mutate) => {
    const data = userInfoExample();
    mutate(data);
    expectInvalid(userInfo, data);
  });

  it("keeps wallets open for the verification data whose structure is not shown", () => {
    const wallet = clone(userInfoExample().wallets[0]);
    expectValid(schemas.wallet, { ...wallet, verification: { signed: true } });
  });
});

describe("identity: token endpoint request (oneOf of open grants)", () => {
  it("accepts both grant examples and a code exchange without the optional code_verifier", () => {
    expectValid(tokenRequest, codeGrantExample());
    expectValid(tokenRequest, refreshGrantExample());
    const withoutPkce = codeGrantExample();
    delete withoutPkce.code_verifier;
    expectValid(tokenRequest, withoutPkce);
  });

  const codeMutations: Array<[string, (d: any) => void]> = [
    ["authorization_code grant without code", (d) => delete d.code],
    ["authorization_code grant without redirect_uri", (d) => delete d.redirect_uri],
    ["authorization_code grant without client_secret", (d) => delete d.client_secret],
    ["grant_type password", (d) => (d.grant_type = "password")],
    ["grant_type client_credentials", (d) => (d.grant_type = "client_credentials")],
    ["a code_verifier shorter than 43 characters", (d) => (d.code_verifier = "dBjftJeZ4CVP-mJ92K9a_-bCpKqO4Rv2nBsbQ5W6y7")],
    ["a code_verifier with a character outside [A-Za-z0-9-._~]", (d) => (d.code_verifier = "dBjftJeZ4CVP+mJ92K9a_-bCpKqO4Rv2nBsbQ5W6y7g")],
  ];
  it("accepts parameters it does not know, which RFC 6749 §3.2 tells the server to ignore", () => {
    expectValid(tokenRequest, { ...codeGrantExample(), resource: "https://api.example.net" });
    expectValid(tokenRequest, { ...refreshGrantExample(), code: "7f1e2a9b4d6c8e05a3b1" });
  });

  it.each(codeMutations)("rejects %s", (_name, mutate) => {
    const data = codeGrantExample();
    mutate(data);
    expectInvalid(tokenRequest, data);
  });

  const refreshMutations: Array<[string, (d: any) => void]> = [
    ["refresh_token grant without refresh_token", (d) => delete d.refresh_token],
    ["refresh_token grant without client_id", (d) => delete d.client_id],
    ["a refresh grant with an empty refresh_token", (d) => (d.refresh_token = "")],
  ];
  it.each(refreshMutations)("rejects %s", (_name, mutate) => {
    const data = refreshGrantExample();
    mutate(data);
    expectInvalid(tokenRequest, data);
  });
});

describe("identity: token endpoint responses", () => {
  it("accepts the examples and extra fields (open)", () => {
    expectValid(tokenResponse, tokensExample());
    expectValid(tokenResponse, responseExample("exchangeToken", "200", "refreshedTokens"));
    expectValid(tokenResponse, { ...tokensExample(), session_state: "abc" });
  });

  it("refresh_token is optional (issued only with offline_access)", () => {
    const data = tokensExample();
    delete data.refresh_token;
    expectValid(tokenResponse, data);
  });

  const mutations: Array<[string, (d: any) => void]> = [
    ["without access_token", (d) => delete d.access_token],
    ["without token_type", (d) => delete d.token_type],
    ["token_type MAC", (d) => (d.token_type = "MAC")],
    ["expires_in as a string", (d) => (d.expires_in = "3600")],
    ["id_token that is not a compact JWS", (d) => (d.id_token = "not-a-jwt")],
  ];
  it.each(mutations)("rejects a token response %s", (_name, mutate) => {
    const data = tokensExample();
    mutate(data);
    expectInvalid(tokenResponse, data);
  });

  it("requires Cache-Control: no-store (RFC 6749 §5.1) and documents Pragma: no-cache without requiring it", () => {
    const headers = findOperation(API, "exchangeToken").operation.responses["200"].headers;
    expect(headers["Cache-Control"].required).toBe(true);
    expect(headers["Cache-Control"].description).toMatch(/RFC 6749 §5\.1/);
    expect(headers.Pragma.required).toBe(false);
    expectValid(headerSchemaPointer("exchangeToken", "200", "Cache-Control"), "no-store");
    expectInvalid(headerSchemaPointer("exchangeToken", "200", "Cache-Control"), "no-cache");
  });

  it("accepts every error example for 400 and 401", () => {
    for (const name of ["invalidGrant", "codeVerifierMismatch", "redirectUriMismatch", "unsupportedGrantType", "invalidRequest"]) {
      const example = responseExample("exchangeToken", "400", name);
      expectValid(tokenError400, example);
    }
    expect(responseExample("exchangeToken", "400", "redirectUriMismatch").error).toBe("invalid_grant");
    expectValid(tokenError401, responseExample("exchangeToken", "401", "invalidClient"));
  });

  const errorMutations: Array<[string, (d: any) => void]> = [
    ["an empty error code", (d) => (d.error = "")],
    ["an error code with a double quote (outside the RFC 6749 §5.2 syntax)", (d) => (d.error = 'invalid "grant"')],
    ["an error code that is not a string", (d) => (d.error = 400)],
    ["no error", (d) => delete d.error],
    ["error_description with a double quote", (d) => (d.error_description = 'The "code" was used')],
    ["error_uri that is not a URI", (d) => (d.error_uri = "see docs")],
  ];
  it.each(errorMutations)("rejects a token error with %s", (_name, mutate) => {
    const data = tokenErrorExample();
    mutate(data);
    expectInvalid(tokenError400, data);
    expectInvalid(tokenError401, data);
  });
});

describe("identity: discovery and JWKS", () => {
  it("accepts the examples and extra members (open)", () => {
    expectValid(discovery, discoveryExample());
    expectValid(discovery, { ...discoveryExample(), introspection_endpoint: "http://127.0.0.1:4010/api/login/oauth/introspect" });
    expectValid(jwks, jwksExample());
  });

  it.each(["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported", "subject_types_supported", "id_token_signing_alg_values_supported"])(
    "rejects a discovery document without %s",
    (member) => {
      const data = discoveryExample();
      delete data[member];
      expectInvalid(discovery, data);
    },
  );

  it("rejects a subject type outside public and pairwise", () => {
    const data = discoveryExample();
    data.subject_types_supported = ["private"];
    expectInvalid(discovery, data);
  });

  it("rejects a JWK without kty, a set without keys and a modulus that is not base64url", () => {
    const noKty = jwksExample();
    delete noKty.keys[0].kty;
    expectInvalid(jwks, noKty);
    expectInvalid(schemas.jwk, noKty.keys[0]);

    const noKeys = jwksExample();
    delete noKeys.keys;
    expectInvalid(jwks, noKeys);

    const badModulus = jwksExample();
    badModulus.keys[0].n = `${badModulus.keys[0].n.slice(0, -2)}+/`;
    expectInvalid(jwks, badModulus);
  });
});

describe("identity: authorize parameters", () => {
  const challenge = parameterSchemaPointer("authorize", "code_challenge");
  const valid43 = "P0mZ8iBFexmkvgOr5dawZTu2ehisSTDZc1almdLp7hY";

  it("marks the PKCE parameter names as not shown and keeps them optional", () => {
    expect(parameter("authorize", "code_challenge").required).toBe(false);
    expect(parameter("authorize", "code_challenge_method").required).toBe(false);
    for (const name of ["response_type", "client_id", "redirect_uri", "scope"]) {
      expect(parameter("authorize", name).required, name).toBe(true);
    }
  });

  it("accepts a 43-character and a 128-character code_challenge", () => {
    expect(valid43).toHaveLength(43);
    expectValid(challenge, valid43);
    expectValid(challenge, "a".repeat(128));
  });

  it("rejects a code_challenge shorter than 43, longer than 128 or with base64 padding", () => {
    expectInvalid(challenge, valid43.slice(0, 42));
    expectInvalid(challenge, "a".repeat(129));
    expectInvalid(challenge, `${valid43.slice(0, 42)}=`);
  });

  it("accepts only S256 as code_challenge_method (RFC 9700 §2.1.1) and only code as response_type", () => {
    const method = parameterSchemaPointer("authorize", "code_challenge_method");
    expectValid(method, "S256");
    expectInvalid(method, "plain");
    expect(parameter("authorize", "code_challenge_method").schema.default).toBeUndefined();
    expectInvalid(method, "S512");
    expectInvalid(method, "s256");
    const responseType = parameterSchemaPointer("authorize", "response_type");
    expectValid(responseType, "code");
    expectInvalid(responseType, "token");
    expectInvalid(responseType, "code id_token");
  });

  it("accepts space-separated scopes and rejects malformed lists", () => {
    const scope = parameterSchemaPointer("authorize", "scope");
    expectValid(scope, "openid profile email");
    expectInvalid(scope, " openid profile");
    expectInvalid(scope, "openid\tprofile");
    expectInvalid(scope, "openid  profile");
    expectInvalid(scope, "");
  });

  it("documents every RFC 6749 §4.1.2.1 error code of the redirect", () => {
    const description = findOperation(API, "authorize").operation.responses["302"].description as string;
    for (const code of ["invalid_request", "unauthorized_client", "access_denied", "unsupported_response_type", "invalid_scope", "server_error", "temporarily_unavailable"]) {
      expect(description).toContain(code);
    }
  });
});

describe("identity: userinfo errors live in WWW-Authenticate", () => {
  it.each([
    ["400", "invalid_request"],
    ["401", "invalid_token"],
    ["403", "insufficient_scope"],
  ])("%s declares a required Bearer challenge with %s", (status, code) => {
    const header = findOperation(API, "getUserInfo").operation.responses[status].headers["WWW-Authenticate"];
    expect(header.required).toBe(true);
    const values = Object.values(header.examples).map((e: any) => e.value as string);
    expect(values.some((v) => v.includes(`error="${code}"`))).toBe(true);
    for (const value of values) expectValid(headerSchemaPointer("getUserInfo", status, "WWW-Authenticate"), value);
    expectInvalid(headerSchemaPointer("getUserInfo", status, "WWW-Authenticate"), 'Basic realm="identity"');
  });
});

describe("identity: logout (RP-Initiated Logout)", () => {
  it("takes the same parameters in the query (GET) and the form body (POST)", () => {
    const names = ["id_token_hint", "logout_hint", "client_id", "post_logout_redirect_uri", "state", "ui_locales"];
    const op = findOperation(API, "logout");
    const query = (op.operation.parameters as any[]).map((_p, i) => resolvePointer(API, `${op.pointer}/parameters/${i}`));
    expect(query.map((p) => p.name)).toEqual(names);
    expect(query.every((p) => p.in === "query" && p.required === false)).toBe(true);
    const form = resolvePointer(API, requestSchemaPointer(API, "logoutWithForm", FORM));
    expect(Object.keys(form.properties)).toEqual(names);
  });

  it("accepts the form example and rejects an id_token_hint that is not a JWT", () => {
    const pointer = requestSchemaPointer(API, "logoutWithForm", FORM);
    const data = requestExample("logoutWithForm", "withIdTokenHint", FORM);
    expectValid(pointer, data);
    expect(data.id_token_hint).toBe(tokensExample().id_token);
    expectInvalid(pointer, { ...data, id_token_hint: "alice" });
    expectInvalid(parameterSchemaPointer("logout", "id_token_hint"), "alice");
  });

  it("redirects with state to the post_logout_redirect_uri", () => {
    for (const operationId of ["logout", "logoutWithForm"]) {
      const redirect = resolvePointer(API, `${findOperation(API, operationId).pointer}/responses/302`);
      expect(redirect.headers.Location.required).toBe(true);
      expect(new URL(redirect.headers.Location.examples.withState.value).searchParams.get("state")).toBe("q7Wn3RcY8dLs");
    }
  });
});
