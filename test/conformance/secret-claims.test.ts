// no_secret_claims reads members by name (conformance/identity/secret-claims.ts): the user's credentials in any
// spelling and at any depth, and none of the registered claims that merely contain a secret-looking word.
import { describe, expect, it } from "vitest";
import { isSecretName, secretMembers } from "../../conformance/identity/secret-claims.js";

describe("secret-looking member names", () => {
  it.each([
    "password",
    "password_hash",
    "passwordHash",
    "PASSWORD-SALT",
    "salt",
    "pwd",
    "hash",
    "totp_secret",
    "totpSecret",
    "otp",
    "mfa_secret",
    "client_secret",
    "recovery_codes",
    "recoveryCodes",
    "backup_code",
    "private_key",
    "privateKey",
    "privatekey",
    "seed_phrase",
    "mnemonic",
  ])("%s is one", (name) => expect(isSecretName(name)).toBe(true));

  it.each(["at_hash", "c_hash", "s_hash", "tx_hash", "sub", "email", "access_token", "id_token", "hotpot", "recovery"])(
    "%s is not",
    (name) => expect(isSecretName(name)).toBe(false),
  );

  it("finds them nested in objects and arrays, with every value under them, and goes no deeper", () => {
    const claims = {
      sub: "u1",
      security: { totpSecret: "JBSWY3DP", devices: [{ name: "phone", recoveryCodes: ["rc-1111", "rc-2222"] }] },
      password: { hash: "h-1234", salt: "s-5678" },
    };
    expect(secretMembers(claims)).toEqual([
      { path: "security.totpSecret", values: ["JBSWY3DP"] },
      { path: "security.devices[0].recoveryCodes", values: ["rc-1111", "rc-2222"] },
      { path: "password", values: ["h-1234", "s-5678"] },
    ]);
  });
});
