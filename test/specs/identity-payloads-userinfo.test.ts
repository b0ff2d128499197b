// Identity API (OpenID Connect provider), userinfo: the claims it always carries (the iss and aud quirk), the
// claims' types, and its errors in WWW-Authenticate.
// Every wrong payload is a valid example changed in exactly one way, so it fails only for the intended reason.
import { describe, expect, it } from "vitest";
import { findOperation, requestSchemaPointer, resolvePointer } from "../support/bundle-nodes.js";
import {
  API,
  clone,
  expectInvalid,
  expectValid,
  headerSchemaPointer,
  responseExample,
  schemas,
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
