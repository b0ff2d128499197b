// Identity API (OpenID Connect provider), the authorize endpoint: its parameters (PKCE, response_type, scope)
// and the errors of its redirect.
// Every wrong payload is a valid example changed in exactly one way, so it fails only for the intended reason.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findOperation } from "../support/bundle-nodes.js";
import { API, expectInvalid, expectValid, parameter, parameterSchemaPointer } from "./support/identity.js";

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
