// The credentials part of `contracts sandbox`'s start-up banner. The built-in demo values are printed on purpose:
// they are public (docs/guide/sandbox.md lists them) and a user needs them to sign in. A secret from the user's own
// --config file is never printed (terminals are scrolled back, logged and shared): the banner names where it is.
import type { SandboxConfig } from "./config.js";
import { DEFAULT_CONFIG } from "./default-config.js";
import { SIGN_IN_METHODS } from "./identity-accounts.js";
import { identityRoutes } from "./identity-routes.js";

/** Every secret of a config: client secrets, demo passwords, API keys and signing secrets. */
function secretsOf(config: SandboxConfig): string[] {
  return [
    ...config.identity.clients.map((client) => client.client_secret),
    ...config.identity.accounts.map((account) => account.password),
    ...config.links.keys.map((key) => key.api_key),
    config.links.password,
    ...config.catalog.keys.map((key) => key.api_key),
    ...config.catalog.shops.map((shop) => shop.issuance_secret),
    ...config.pay.keys.map((key) => key.api_key),
  ];
}

const DEMO_SECRETS = new Set(secretsOf(DEFAULT_CONFIG));

/** The credentials of the config for the banner; `configFile` is where a config other than the default came from. */
export function describeCredentials(config: SandboxConfig, issuer: string, configFile?: string): string {
  // A value of the built-in demo config is public wherever it appears; any other is shown by its place in the file.
  const secret = (value: string, where: string) =>
    DEMO_SECRETS.has(value) ? value : `<${where} from ${configFile ?? "the config"}>`;
  const lines = [`identity  issuer ${issuer} (discovery at ${identityRoutes().discovery})`];
  config.identity.clients.forEach((client, i) => {
    const clientSecret = secret(client.client_secret, `identity.clients[${i}].client_secret`);
    lines.push(
      `          client ${client.client_id} / secret ${clientSecret}, redirect_uris ${client.redirect_uris.join(" ")}, scopes ${client.scopes.join(" ")}`,
    );
  });
  lines.push(`          sign-in methods: ${SIGN_IN_METHODS.map((method) => method.id).join(", ")}; demo accounts:`);
  config.identity.accounts.forEach((account, i) => {
    const claims = account.claims;
    const extra = [
      claims.tg_username && `messenger ${claims.tg_username}`,
      claims.wallets?.length && `wallet ${claims.wallets[0]!.address}`,
    ]
      .filter(Boolean)
      .join(", ");
    lines.push(
      `            ${claims.email ?? claims.sub} / ${secret(account.password, `identity.accounts[${i}].password`)}${extra ? ` (or ${extra})` : ""}`,
    );
  });
  const linksKeys = config.links.keys.map(
    (key, i) => `${secret(key.api_key, `links.keys[${i}].api_key`)}${key.expired ? " (expired)" : ""}`,
  );
  lines.push(`links     Authorization: Bearer ${linksKeys.join(", ")}`);
  const sellerKeys = config.catalog.keys.map(
    (key, i) => `${secret(key.api_key, `catalog.keys[${i}].api_key`)} (${key.shop}: ${key.scopes.join(" ")})`,
  );
  lines.push(`catalog   x-seller-api-key: ${sellerKeys.join(", ")}`);
  const issuance = config.catalog.shops.map(
    (shop, i) => `${shop.id} ${secret(shop.issuance_secret, `catalog.shops[${i}].issuance_secret`)}`,
  );
  lines.push(
    `          issuance events signed with: ${issuance.join(", ")} (HMAC-SHA256 of the body, Authorization: Bearer <hex>)`,
  );
  lines.push(
    `          sandbox-only: PATCH /_sandbox/shop {"issuance_url"}, POST /_sandbox/sales {"product_id"}, GET /_sandbox/sales, GET /_sandbox/products`,
  );
  const payKeys = config.pay.keys.map((key, i) => `${key.shop_id} / ${secret(key.api_key, `pay.keys[${i}].api_key`)}`);
  lines.push(
    `pay       shop_id / signing key: ${payKeys.join(", ")} (HMAC-SHA256 of the body, Authorization: Bearer <hex>)`,
  );
  lines.push(`          createOrder returns a payment page at /_sandbox/pay/<id> with Pay and Cancel buttons`);
  return lines.join("\n");
}
