/* eslint-disable max-lines -- over the cap since the code was formatted at 120 columns; to be split */
// Identity API (OpenID Connect provider): quirks and deliberately wrong payloads. Every wrong payload is a valid
// example changed in exactly one way, so it fails only for the intended reason.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findOperation, requestSchemaPointer, resolvePointer } from "../support/bundle-nodes.js";
import {
  API,
  clone,
  codeGrantExample,
  discovery,
  discoveryExample,
  expectInvalid,
  expectValid,
  FORM,
  headerSchemaPointer,
  idTokenClaimsExample,
  jwks,
  jwksExample,
  parameter,
  parameterSchemaPointer,
  refreshGrantExample,
  requestExample,
  responseExample,
  schemas,
  tokenError400,
  tokenError401,
  tokenErrorExample,
  tokenRequest,
  tokenResponse,
  tokensExample,
  userInfo,
  userInfoExample,
} from "./support/identity.js";

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
    ['email_verified as the string "true"', (d) => (d.email_verified = "true")],
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
    ['email_verified as the string "true"', (d) => (d.email_verified = "true")],
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
    [
      "a code_verifier shorter than 43 characters",
      (d) => (d.code_verifier = "dBjftJeZ4CVP-mJ92K9a_-bCpKqO4Rv2nBsbQ5W6y7"),
    ],
    [
      "a code_verifier with a character outside [A-Za-z0-9-._~]",
      (d) => (d.code_verifier = "dBjftJeZ4CVP+mJ92K9a_-bCpKqO4Rv2nBsbQ5W6y7g"),
    ],
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
    for (const name of [
      "invalidGrant",
      "codeVerifierMismatch",
      "redirectUriMismatch",
      "unsupportedGrantType",
      "invalidRequest",
    ]) {
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
    expectValid(discovery, { ...discoveryExample(), introspection_endpoint: "http://127.0.0.1:4010/introspect" });
    expectValid(jwks, jwksExample());
  });

  it.each([
    "issuer",
    "authorization_endpoint",
    "token_endpoint",
    "jwks_uri",
    "response_types_supported",
    "subject_types_supported",
    "id_token_signing_alg_values_supported",
  ])("rejects a discovery document without %s", (member) => {
    const data = discoveryExample();
    delete data[member];
    expectInvalid(discovery, data);
  });

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

  it("requires the PKCE parameters: the seed's flow is Authorization Code with PKCE", () => {
    for (const name of [
      "response_type",
      "client_id",
      "redirect_uri",
      "scope",
      "code_challenge",
      "code_challenge_method",
    ]) {
      expect(parameter("authorize", name).required, name).toBe(true);
    }
    // Only the verifier's names are not shown; a provider may also take a request without them (no x-provider-refuses).
    expect(parameter("authorize", "code_challenge")["x-provider-refuses"]).toBeUndefined();
  });

  it("accepts an S256 code_challenge: always 43 base64url characters (RFC 7636 §4.2)", () => {
    expect(valid43).toHaveLength(43);
    expectValid(challenge, valid43);
    const verifier = "dBjftJeZ4CVP-mJ92K9a_-bCpKqO4Rv2nBsbQ5W6y7g";
    expectValid(challenge, createHash("sha256").update(verifier).digest("base64url"));
  });

  it("rejects a code_challenge of another length, with base64 padding or characters outside base64url", () => {
    expectInvalid(challenge, valid43.slice(0, 42));
    expectInvalid(challenge, `${valid43}a`);
    expectInvalid(challenge, "a".repeat(128));
    expectInvalid(challenge, `${valid43.slice(0, 42)}=`);
    expectInvalid(challenge, `${valid43.slice(0, 42)}~`);
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
    for (const code of [
      "invalid_request",
      "unauthorized_client",
      "access_denied",
      "unsupported_response_type",
      "invalid_scope",
      "server_error",
      "temporarily_unavailable",
    ]) {
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
    const header = resolvePointer(
      API,
      headerSchemaPointer("getUserInfo", status, "WWW-Authenticate").replace(/\/schema$/, ""),
    );
    expect(header.required).toBe(true);
    const values = Object.values(header.examples).map((e: any) => e.value as string);
    expect(values.some((v) => v.includes(`error="${code}"`))).toBe(true);
    for (const value of values) expectValid(headerSchemaPointer("getUserInfo", status, "WWW-Authenticate"), value);
    expectInvalid(headerSchemaPointer("getUserInfo", status, "WWW-Authenticate"), 'Basic realm="identity"');
  });

  it("answers a POST as it answers a GET (OpenID Connect Core §5.3.1), the token in the header or the form body", () => {
    const byGet = findOperation(API, "getUserInfo").operation.responses;
    const byPost = findOperation(API, "getUserInfoByPost").operation.responses;
    expect(byPost).toEqual(byGet);
    expect(Object.values(byGet).every((response: any) => typeof response.$ref === "string")).toBe(true);
    const body = requestSchemaPointer(API, "getUserInfoByPost", "application/x-www-form-urlencoded");
    expectValid(body, {});
    expectValid(body, { access_token: "SlAV32hkKG" });
    expectInvalid(body, { access_token: ["SlAV32hkKG", "SlAV32hkKG"] });
    expect(resolvePointer(API, `${body}/properties/access_token`)["x-assumption"]).toMatch(/RFC 6750 §2\.2/);
  });
});

describe("identity: logout (RP-Initiated Logout)", () => {
  it("takes the same parameters in the query (GET) and the form body (POST)", () => {
    const names = ["id_token_hint", "logout_hint", "client_id", "post_logout_redirect_uri", "state", "ui_locales"];
    const op = findOperation(API, "logout");
    const query = (op.operation.parameters as any[]).map((_p, i) =>
      resolvePointer(API, `${op.pointer}/parameters/${i}`),
    );
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
      expect(new URL(redirect.headers.Location.examples.withState.value).searchParams.get("state")).toBe(
        "q7Wn3RcY8dLs",
      );
    }
  });
});
