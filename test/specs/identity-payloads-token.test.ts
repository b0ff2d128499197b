// Identity API (OpenID Connect provider), the token endpoint: its request (a oneOf of open grants), its responses
// and its errors.
// Every wrong payload is a valid example changed in exactly one way, so it fails only for the intended reason.
import { describe, expect, it } from "vitest";
import { findOperation } from "../support/bundle-nodes.js";
import {
  API,
  codeGrantExample,
  expectInvalid,
  expectValid,
  headerSchemaPointer,
  refreshGrantExample,
  responseExample,
  tokenError400,
  tokenError401,
  tokenErrorExample,
  tokenRequest,
  tokenResponse,
  tokensExample,
} from "./support/identity.js";

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
