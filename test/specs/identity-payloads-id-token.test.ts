// Identity API (OpenID Connect provider), the id_token's claims: aud documented as a single string (the quirk; an array
// is allowed too, as OpenID Connect Core §2 allows it) and the types of the other claims.
// Every wrong payload is a valid example changed in exactly one way, so it fails only for the intended reason.
import { describe, expect, it } from "vitest";
import { resolvePointer } from "../support/bundle-nodes.js";
import {
  API,
  expectInvalid,
  expectValid,
  idTokenClaimsExample,
  schemas,
  userInfo,
  userInfoExample,
} from "./support/identity.js";

describe("identity: quirk aud is documented as a single string in the id_token", () => {
  it("marks it with x-quirk", () => {
    expect(resolvePointer(API, `${schemas.idToken}/properties/aud`)["x-quirk"]).toMatch(/single string/);
  });

  it("accepts aud as an array, which OpenID Connect Core §2 allows (containing the client_id is the flow's check)", () => {
    const data = idTokenClaimsExample();
    data.aud = ["demo-app"];
    expectValid(schemas.idToken, data);
  });

  it("rejects aud as an empty array", () => {
    const data = idTokenClaimsExample();
    data.aud = [];
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
  it("marks the e-mail format as an assumption (the seed says string; an empty e-mail is a warning at most)", () => {
    for (const pointer of [schemas.idToken, userInfo])
      expect(resolvePointer(API, `${pointer}/properties/email`)["x-assumption"]).toMatch(/our reading/);
  });

  it.each(mutations)("rejects %s", (_name, mutate) => {
    const data = idTokenClaimsExample();
    mutate(data);
    expectInvalid(schemas.idToken, data);
  });
});
