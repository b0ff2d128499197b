// The Config OP checks of issue 63 on the discovery document's members: https on every advertised address whose host
// is not loopback, grant_types_supported and claims_supported judged when present, and the RECOMMENDED members
// (scopes_supported, a complete claims_supported) warning, not failing, unless --strict. The rules are pure
// (judge/identity-discovery-members.ts); the runs prove them on the fault provider (a fault server each, in this
// process: test/support/conform.ts).
import { describe, expect, it } from "vitest";
import {
  grantTypesAndClaims,
  plainHttpEndpoints,
  scopesNotListed,
} from "../../conformance/judge/identity-discovery-members.js";
import { startIdentityServer } from "../../conformance/fault-servers/identity.js";
import type { IdentityFault } from "../../conformance/fault-servers/identity-fault-names.js";
import { failingChecks } from "../support/conform-cli.js";
import { conformIdentityInProcess } from "../support/conform.js";

const SEED_CLAIMS = ["sub", "name", "preferred_username", "picture", "tg_id", "tg_username", "email"];

describe("the discovery document's addresses use https off loopback", () => {
  it.each([
    "http://127.0.0.1:4010/token",
    "http://127.9.3.1/token",
    "http://localhost:8080/token",
    "http://id.localhost/token",
    "http://[::1]:4010/token",
    "https://id.example.org/token",
  ])("%s passes", (url) => {
    expect(plainHttpEndpoints({ token_endpoint: url, jwks_uri: url, issuer: url })).toBe("");
  });

  it("fails each plain http address elsewhere, the issuer and jwks_uri included, and names them", () => {
    const problem = plainHttpEndpoints({
      issuer: "http://id.example.org",
      jwks_uri: "https://id.example.org/jwks",
      token_endpoint: "http://id.example.org/token",
      introspection_endpoint: "http://128.0.0.1/introspect",
      response_types_supported: ["http://not-an-address-member.example.org"],
    });
    expect(problem).toContain("issuer http://id.example.org, token_endpoint http://id.example.org/token");
    expect(problem).toContain("introspection_endpoint http://128.0.0.1/introspect");
    expect(problem).not.toContain("jwks_uri");
    expect(problem).not.toContain("not-an-address-member");
    expect(problem).toMatch(/Discovery §3/);
  });
});

describe("grant_types_supported and claims_supported, when present", () => {
  it("pass when absent, or with authorization_code and the seed's claims", () => {
    expect(grantTypesAndClaims({})).toEqual({ problem: "", unlisted: "" });
    const listed = grantTypesAndClaims({
      grant_types_supported: ["refresh_token", "authorization_code"],
      claims_supported: [...SEED_CLAIMS, "email_verified", "wallets", "acr"],
    });
    expect(listed).toEqual({ problem: "", unlisted: "" });
  });

  it("fail grant types without authorization_code, and claims that are not claim names", () => {
    expect(grantTypesAndClaims({ grant_types_supported: ["implicit"] }).problem).toMatch(/lacks authorization_code/);
    expect(grantTypesAndClaims({ grant_types_supported: "authorization_code" }).problem).toMatch(/lacks/);
    expect(grantTypesAndClaims({ claims_supported: "sub email" }).problem).toMatch(/not an array of claim names/);
  });

  it("name the seed's claims a claims_supported lacks, for a warning", () => {
    const { problem, unlisted } = grantTypesAndClaims({ claims_supported: ["sub", "name"] });
    expect(problem).toBe("");
    expect(unlisted).toMatch(/does not list preferred_username, picture, tg_id, tg_username, email, email_verified/);
  });

  it("scopes_supported: only its absence is noted", () => {
    expect(scopesNotListed({})).toMatch(/no scopes_supported .*RECOMMENDED/);
    expect(scopesNotListed({ scopes_supported: [] })).toBe("");
  });
});

describe.concurrent("a provider leaving out what Discovery §3 only RECOMMENDS", () => {
  const run = async (fault: IdentityFault, args: string[] = []) => {
    const server = await startIdentityServer({ fault });
    try {
      return await conformIdentityInProcess(server.url, ["--operation", "getOpenIdConfiguration", ...args]);
    } finally {
      await server.close();
    }
  };

  it.each([
    ["scopes-supported-absent", "discovery_rs256_and_openid", /no scopes_supported/],
    ["claims-supported-incomplete", "discovery_grant_types_and_claims", /does not list email, email_verified/],
  ] as const)("%s passes with a warning, and fails under --strict", async (fault, check, message) => {
    const { code, report, output } = await run(fault);
    expect(failingChecks(report), output).toEqual([]);
    expect(code, output).toBe(0);
    expect(report.warnings).toEqual([
      expect.objectContaining({
        check,
        message: expect.stringMatching(message),
        assumption: expect.stringMatching(/RECOMMENDED/),
      }),
    ]);
    const strict = await run(fault, ["--strict"]);
    expect(failingChecks(strict.report), strict.output).toEqual([check]);
    expect(strict.code).toBe(1);
  });
});
