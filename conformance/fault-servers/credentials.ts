/** Demo credentials of the fault servers (never real secrets, but the runner treats them as secrets all the same). */
export const FAULT_SERVER_CREDENTIALS = {
  LINKS_TOKEN: "links-demo-token-7f3a9c",
  CATALOG_API_KEY: "catalog-demo-key-2b8e41",
  CATALOG_READ_API_KEY: "catalog-demo-read-key-6c1d20",
  PAY_SHOP_ID: "3561",
  PAY_SECRET: "pay-demo-secret-5d0c77",
  IDENTITY_CLIENT_ID: "demo-app",
  IDENTITY_CLIENT_SECRET: "identity-demo-secret-9a1f",
  IDENTITY_REDIRECT_URI: "http://127.0.0.1:5173/callback",
  // Another client of the same provider (refresh_token_client_bound presents the first client's refresh token).
  IDENTITY_SECOND_CLIENT_ID: "second-app",
  IDENTITY_SECOND_CLIENT_SECRET: "identity-second-secret-4c2e",
  IDENTITY_SIGN_IN: "login=alice&password=alice-demo-password",
  IDENTITY_POST_LOGOUT_REDIRECT_URI: "http://127.0.0.1:5173/",
} as const;
