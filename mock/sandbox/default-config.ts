// The sandbox's default settings: what the contracts cannot say (API keys, OIDC clients, demo accounts and their
// passwords, categories). Everything else the sandbox starts with comes from the contracts' examples (seed data in
// each API's module). To change them, write this object out with `contracts sandbox --print-config > my.json`,
// edit it and start with `--config my.json`.
import type { SandboxConfig } from "./config.js";

export const DEFAULT_CONFIG: SandboxConfig = {
  identity: {
    clients: [
      {
        client_id: "demo-app",
        client_secret: "demo-app-secret",
        client_name: "Demo app",
        redirect_uris: ["http://127.0.0.1:5173/callback", "http://localhost:5173/callback"],
        post_logout_redirect_uris: ["http://127.0.0.1:5173/", "http://localhost:5173/"],
        scopes: ["openid", "profile", "email", "wallets", "offline_access", "quests"],
      },
    ],
    accounts: [
      {
        password: "alice-demo",
        identity_providers: ["idp-a", "idp-b"],
        claims: {
          sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91",
          name: "Alice Novak",
          preferred_username: "alice",
          picture: "https://t.me/i/userpic/320/alice_novak.jpg",
          tg_id: 482915637,
          tg_username: "alice_novak",
          email: "alice.novak@example.org",
          email_verified: true,
          wallets: [
            { chain: "ton", address: "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG" },
            { chain: "ethereum", address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72" },
          ],
        },
      },
      {
        password: "bob-demo",
        identity_providers: ["idp-b"],
        claims: {
          sub: "0c3d7e91-52a4-4f6b-8d19-7a2e5c4b3f08",
          name: "Bob Ivanov",
          preferred_username: "bob",
          email: "bob.ivanov@example.com",
          email_verified: false,
          wallets: [],
        },
      },
    ],
  },
  links: {
    keys: [{ api_key: "demo-links-key" }, { api_key: "expired-links-key", expired: true }],
    password: "demo-password",
    perPage: 10,
    shortLinkBase: "https://go.example.com",
  },
  catalog: {
    shops: [
      {
        id: "shop_northwind",
        name: "Northwind Keys",
        payout_verified: true,
        issuance_url: null,
        issuance_secret: "demo-issuance-secret",
        categories: [
          { id: "pcat_8kq2m4x7", name: "Gift cards", parent_id: null },
          { id: "pcat_3hw9d2r5", name: "Steam", parent_id: "pcat_8kq2m4x7" },
          { id: "pcat_6tn4b8v1", name: "PlayStation", parent_id: "pcat_8kq2m4x7" },
          { id: "pcat_2fz7c5m9", name: "VPN", parent_id: null },
        ],
      },
      {
        id: "shop_gear",
        name: "Northwind Gear",
        payout_verified: false,
        issuance_url: null,
        issuance_secret: "demo-gear-issuance-secret",
        categories: [{ id: "pcat_9xd1k6q3", name: "In-game items", parent_id: null }],
      },
    ],
    keys: [
      { api_key: "demo-seller-key", shop: "shop_northwind", scopes: ["products:read", "products:write"] },
      { api_key: "demo-seller-read-key", shop: "shop_northwind", scopes: ["products:read"] },
      { api_key: "demo-gear-seller-key", shop: "shop_gear", scopes: ["products:read", "products:write"] },
    ],
    issuanceTimeoutMs: 5000,
  },
  pay: {
    keys: [
      { shop_id: "3561", api_key: "demo-pay-key" },
      { shop_id: "3562", api_key: "demo-pay-key-3562" },
    ],
    currencies: { RUB: 1, USD: 2, EUR: 3 },
    feePercent: 3,
    ordersPerPage: 20,
    defaultPaymentSystem: 4,
  },
};
