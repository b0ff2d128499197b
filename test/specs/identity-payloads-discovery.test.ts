// Identity API (OpenID Connect provider), the discovery document and the JWKS.
// Every wrong payload is a valid example changed in exactly one way, so it fails only for the intended reason.
import { describe, it } from "vitest";
import {
  discovery,
  discoveryExample,
  expectInvalid,
  expectValid,
  jwks,
  jwksExample,
  schemas,
} from "./support/identity.js";

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
