// The shape of the sandbox's settings (the defaults are in default-config.ts) and their checks. Reading a custom
// config file is Node-only: config-file.ts (this module is also bundled for browsers by the MSW handlers).
import { DEFAULT_CONFIG } from "./default-config.js";

export interface OidcClientConfig {
  client_id: string;
  client_secret: string;
  client_name?: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  scopes: string[];
}

export interface DemoAccountConfig {
  /** Demo password for the e-mail sign-in method. */
  password: string;
  /** Third-party identity providers the account is linked to: idp-a, idp-b. */
  identity_providers: string[];
  /** The user's claims (sub, name, email, tg_id, wallets, ...), released by scope. */
  claims: Record<string, unknown> & {
    sub: string;
    email?: string;
    tg_username?: string;
    wallets?: Array<{ chain: string; address: string }>;
  };
}

export interface SandboxConfig {
  identity: { clients: OidcClientConfig[]; accounts: DemoAccountConfig[] };
  links: {
    keys: Array<{ api_key: string; expired?: boolean }>;
    /** The account's current password (accepted by updateAccount, never returned). */
    password: string;
    perPage: number;
    shortLinkBase: string;
  };
  catalog: {
    shops: Array<{
      id: string;
      name: string;
      payout_verified: boolean;
      issuance_url: string | null;
      issuance_secret: string;
      categories: Array<{ id: string; name: string; parent_id: string | null }>;
    }>;
    keys: Array<{ api_key: string; shop: string; scopes: string[] }>;
    issuanceTimeoutMs: number;
  };
  pay: {
    keys: Array<{ shop_id: string; api_key: string }>;
    currencies: Record<string, number>;
    feePercent: number;
    ordersPerPage: number;
    defaultPaymentSystem: number;
  };
}

export class SandboxConfigError extends Error {}

/** A fresh copy of the default config. */
export function defaultConfig(): SandboxConfig {
  return structuredClone(DEFAULT_CONFIG);
}

/** Throws SandboxConfigError naming `path` when the config is inconsistent. */
export function checkConfig(config: SandboxConfig, path: string): void {
  const fail = (message: string) => {
    throw new SandboxConfigError(`${path}: ${message}`);
  };
  for (const section of ["identity", "links", "catalog", "pay"] as const)
    if (typeof config?.[section] !== "object") fail(`the "${section}" section is missing`);
  const shops = new Set(config.catalog.shops.map((shop) => shop.id));
  for (const key of config.catalog.keys) if (!shops.has(key.shop)) fail(`catalog key for unknown shop "${key.shop}"`);
  for (const shop of config.catalog.shops) {
    for (const category of shop.categories)
      if (!category.id.startsWith("pcat_")) fail(`category id "${category.id}" lacks the pcat_ prefix`);
  }
  for (const client of config.identity.clients) {
    if (!client.client_id || !client.client_secret || client.redirect_uris.length === 0)
      fail(`client "${client.client_id}" needs client_id, client_secret and redirect_uris`);
  }
  const subs = new Set<string>();
  for (const account of config.identity.accounts) {
    if (subs.has(account.claims.sub)) fail(`two demo accounts have the sub ${account.claims.sub}`);
    subs.add(account.claims.sub);
  }
}
