// The identity sandbox's accounts and storage: its state (signing key, cookie keys, oidc-provider's records),
// the seeds' sign-in methods and how a login finds a demo account, and oidc-provider's adapter over the state.
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { DemoAccountConfig } from "./config.js";

export interface IdentityState {
  /** The private RS256 key that signs id_tokens (its public half is served at the contract's getJwks path). */
  signingKey: JWK;
  /** Keys that sign the provider's cookies. */
  cookieKeys: string[];
  /** oidc-provider's records (sessions, grants, codes, tokens) by `Model:id`, with their expiry in epoch ms. */
  records: Record<string, { payload: AdapterPayload; expiresAt: number | null }>;
}

export async function seedIdentity(): Promise<IdentityState> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true, modulusLength: 2048 });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    alg: "RS256",
    use: "sig",
    kid: `sandbox-${randomBytes(6).toString("hex")}`,
  };
  return { signingKey, cookieKeys: [randomBytes(32).toString("base64url")], records: {} };
}

/** Sign-in methods of the seeds. Every method but e-mail is simulated: the sandbox confirms the demo account. */
export const SIGN_IN_METHODS = [
  { id: "messenger", label: "Continue with messenger", loginLabel: "Messenger account" },
  { id: "wallet", label: "Connect a blockchain wallet", loginLabel: "Wallet address" },
  { id: "email", label: "Continue with e-mail", loginLabel: "E-mail" },
  { id: "idp-a", label: "Continue with identity provider A", loginLabel: "Account at identity provider A" },
  { id: "idp-b", label: "Continue with identity provider B", loginLabel: "Account at identity provider B" },
] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number]["id"];

/** The logins an account can use with one method (empty when the account has not linked that method). */
export function loginsOf(account: DemoAccountConfig, method: SignInMethod): string[] {
  const { claims } = account;
  switch (method) {
    case "email":
      return claims.email ? [claims.email] : [];
    case "messenger":
      return claims.tg_username ? [claims.tg_username] : [];
    case "wallet":
      return (claims.wallets ?? []).map((wallet) => wallet.address);
    default:
      return claims.email && account.identity_providers.includes(method) ? [claims.email] : [];
  }
}

export function findAccountByLogin(
  accounts: DemoAccountConfig[],
  method: string,
  login: string,
  password: string,
): DemoAccountConfig | undefined {
  const known = SIGN_IN_METHODS.find((m) => m.id === method);
  if (!known) return undefined;
  const wanted = login.trim().replace(/^@/, "").toLowerCase();
  const account = accounts.find((candidate) =>
    loginsOf(candidate, known.id).some((value) => value.toLowerCase() === wanted),
  );
  if (account && known.id === "email" && account.password !== password) return undefined;
  return account;
}

function liveRecords(state: IdentityState) {
  const live = (key: string) => {
    const record = state.records[key];
    if (record && record.expiresAt !== null && record.expiresAt <= Date.now()) {
      delete state.records[key];
      return undefined;
    }
    return record?.payload;
  };
  const findWhere = (model: string, test: (payload: AdapterPayload) => boolean) => {
    for (const key of Object.keys(state.records)) {
      if (!key.startsWith(`${model}:`)) continue;
      const payload = live(key);
      if (payload && test(payload)) return payload;
    }
    return undefined;
  };
  return { live, findWhere };
}

/** oidc-provider's storage over the sandbox state, so sessions, grants and refresh tokens persist with --data. */
export function stateAdapter(state: IdentityState, onChange: () => void): (model: string) => Adapter {
  const { live, findWhere } = liveRecords(state);
  return (model) => ({
    upsert(id, payload, expiresIn) {
      const now = Date.now();
      for (const [key, record] of Object.entries(state.records))
        if (record.expiresAt !== null && record.expiresAt <= now) delete state.records[key];
      state.records[`${model}:${id}`] = {
        payload,
        expiresAt: typeof expiresIn === "number" ? now + expiresIn * 1000 : null,
      };
      onChange();
      return Promise.resolve();
    },
    find: (id) => Promise.resolve(live(`${model}:${id}`)),
    findByUid: (uid) => Promise.resolve(findWhere(model, (payload) => payload.uid === uid)),
    findByUserCode: (userCode) => Promise.resolve(findWhere(model, (payload) => payload.userCode === userCode)),
    consume(id) {
      const record = state.records[`${model}:${id}`];
      if (record) record.payload.consumed = Math.floor(Date.now() / 1000);
      onChange();
      return Promise.resolve();
    },
    destroy(id) {
      delete state.records[`${model}:${id}`];
      onChange();
      return Promise.resolve();
    },
    revokeByGrantId(grantId) {
      for (const [key, record] of Object.entries(state.records))
        if (record.payload.grantId === grantId) delete state.records[key];
      onChange();
      return Promise.resolve();
    },
  });
}
