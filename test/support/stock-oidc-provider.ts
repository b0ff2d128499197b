// A stock, OpenID Certified provider (panva's oidc-provider) with its defaults, configured only as far as the identity
// seed asks: its fixed paths, a client authenticating with client_secret_post (and a second one), PKCE, the seed's
// scopes and claims, iss and aud in userinfo, GET and POST logout. It shares no code or configuration with the sandbox
// (mock/sandbox): its own sign-in and consent pages (oidc-provider's development interactions), its 303 redirects, its
// JSON errors, its application/jwk-set+json JWKS and its OpenID Connect Core §11 reading of offline_access are all the
// library's.
// `contracts conform identity` must pass it: a correct provider that made other allowed choices than ours.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import Provider, { type Configuration } from "oidc-provider";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { StockStore } from "./stock-oidc-store.js";

/** The seed's client registration (the fault servers' demo credentials, so the runs share their environment). */
export const STOCK_CLIENT = {
  client_id: "demo-app",
  client_secret: "identity-demo-secret-9a1f",
  redirect_uri: "http://127.0.0.1:5173/callback",
  post_logout_redirect_uri: "http://127.0.0.1:5173/",
};

/** A second client of the seed's kind (refresh_token_client_bound), with the fault servers' second credentials. */
export const STOCK_SECOND_CLIENT = {
  client_id: FAULT_SERVER_CREDENTIALS.IDENTITY_SECOND_CLIENT_ID,
  client_secret: FAULT_SERVER_CREDENTIALS.IDENTITY_SECOND_CLIENT_SECRET,
};

/** oidc-provider's development sign-in takes any password; the login becomes sub, which the seed says is a UUID. */
export const STOCK_SIGN_IN = "login=5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91&password=any-password";

/** The seed's claims of one user, by scope (the seed's claim table). */
const ALICE = {
  name: "Alice Novak",
  preferred_username: "alice",
  picture: "https://example.org/alice.png",
  tg_id: 7012345678,
  tg_username: "alice_novak",
  email: "alice.novak@example.org",
  email_verified: true,
  wallets: [{ chain: "ton", address: "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG" }],
};

export interface StockProviderOptions {
  /** PKCE required for this client (the seed's "Authorization Code with PKCE"); oidc-provider's default: optional. */
  pkceRequired?: boolean;
  /**
   * The client may use refresh tokens (default). Without them oidc-provider grants no offline_access, which Core §11
   * allows: the refresh check must skip, not fail.
   */
  refreshTokens?: boolean;
  /** Choices the standards allow that the run once failed (issue 47); each is a small hook around the library. */
  /** The discovery document leaves out code_challenge_methods_supported (RFC 8414 §2: OPTIONAL). */
  withoutPkceMethods?: boolean;
  /** The id_token's aud is the one-element array ["<client_id>"] (OpenID Connect Core §2), re-signed with its key. */
  audienceArray?: boolean;
  /** The user has no e-mail address: email is "" (a messenger or wallet sign-in). */
  emptyEmail?: boolean;
  /** Endpoints at the provider's own paths, not the seed's (issue 62): its discovery document advertises them. */
  routes?: StockRoutes;
  /**
   * The id_token carries the claims of the granted scopes too (oidc-provider's conformIdTokenClaims off; Core §2
   * allows other claims), not only sub: id_token_by_scope must pass them.
   */
  scopeClaimsInIdToken?: boolean;
  /** oidc-provider's claimsParameter feature (OpenID Connect Core §5.5, OPTIONAL; off by default). */
  claimsParameter?: boolean;
  /** oidc-provider's revocation feature (RFC 7009; off by default): discovery advertises its revocation_endpoint. */
  revocation?: boolean;
  /**
   * oidc-provider's rpInitiatedLogout feature off (on by default): discovery advertises no end_session_endpoint
   * (RP-Initiated Logout is OPTIONAL), so a session signed in there has no way to end before it expires.
   */
  withoutLogout?: boolean;
  /** Its storage adapter, for a test that counts what the provider holds (stock-oidc-store.ts). */
  store?: StockStore;
  /** Called with each request's path before the provider sees it: a test can hold one until it is ready. */
  beforeRequest?: (path: string) => Promise<void>;
}

/** oidc-provider's `routes` of the endpoints the seed's table names. */
export interface StockRoutes {
  authorization: string;
  token: string;
  userinfo: string;
  jwks: string;
  end_session: string;
}

/** The seed's fixed paths (its endpoint table); discovery is oidc-provider's own /.well-known/openid-configuration. */
export const SEED_ROUTES: StockRoutes = {
  authorization: "/login/oauth/authorize",
  token: "/api/login/oauth/access_token",
  userinfo: "/api/userinfo",
  jwks: "/.well-known/jwks",
  end_session: "/api/logout",
};

/** Routes of the provider's own, none of them the seed's: a deployment whose endpoints are elsewhere (issue 62). */
export const OWN_ROUTES: StockRoutes = {
  authorization: "/oidc/auth",
  token: "/oidc/token",
  userinfo: "/oidc/me",
  jwks: "/oidc/certs",
  end_session: "/oidc/session/end",
};

function configuration(options: StockProviderOptions, signingKey?: JWK): Configuration {
  const user = options.emptyEmail ? { ...ALICE, email: "", email_verified: false } : ALICE;
  const registration = {
    redirect_uris: [STOCK_CLIENT.redirect_uri],
    post_logout_redirect_uris: [STOCK_CLIENT.post_logout_redirect_uri],
    grant_types: options.refreshTokens === false ? ["authorization_code"] : ["authorization_code", "refresh_token"],
    token_endpoint_auth_method: "client_secret_post" as const,
  };
  return {
    ...(signingKey ? { jwks: { keys: [signingKey] } } : {}),
    clients: [
      { client_id: STOCK_CLIENT.client_id, client_secret: STOCK_CLIENT.client_secret, ...registration },
      { ...STOCK_SECOND_CLIENT, ...registration },
    ],
    routes: options.routes ?? SEED_ROUTES,
    scopes: ["openid", "profile", "email", "wallets", "offline_access", "quests"],
    claims: {
      openid: ["sub"],
      profile: ["name", "preferred_username", "picture", "tg_id", "tg_username"],
      email: ["email", "email_verified"],
      wallets: ["wallets"],
    },
    ...(options.pkceRequired ? { pkce: { required: () => true } } : {}),
    ...(options.scopeClaimsInIdToken ? { conformIdTokenClaims: false } : {}),
    features: {
      ...(options.claimsParameter ? { claimsParameter: { enabled: true } } : {}),
      ...(options.revocation ? { revocation: { enabled: true } } : {}),
      ...(options.withoutLogout ? { rpInitiatedLogout: { enabled: false } } : {}),
    },
    ...(options.store ? { adapter: options.store.adapter } : {}),
    // oidc-provider's development sign-in takes any login and password, and the login is the account id (sub).
    findAccount: (_ctx, sub) => Promise.resolve({ accountId: sub, claims: () => ({ sub, ...user }) }),
  };
}

async function rsaSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: "stock-aud-array", alg: "RS256", use: "sig" };
}

/** The token response with its id_token's aud turned into ["<aud>"], signed again with the provider's own key. */
async function withAudienceArray(
  body: Record<string, unknown>,
  signingKey: JWK,
  reSigned: Map<string, string>,
): Promise<Record<string, unknown>> {
  if (typeof body.id_token !== "string") return body;
  const claims = decodeJwt(body.id_token);
  const header = decodeProtectedHeader(body.id_token);
  const idToken = await new SignJWT({ ...claims, aud: [claims.aud ?? []].flat() })
    .setProtectedHeader({ ...header, alg: "RS256" })
    .sign(await importJWK(signingKey, "RS256"));
  reSigned.set(idToken, body.id_token);
  return { ...body, id_token: idToken };
}

async function readBody(request: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

export interface StockProvider {
  url: string;
  /** Every request the server received, as its own log: method and path (the query left out). */
  requests: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

/** Starts the provider on 127.0.0.1 (port 0: any free port). */
export async function startStockOidcProvider(options: StockProviderOptions = {}, port = 0): Promise<StockProvider> {
  // The issuer is the address, so the server listens first and takes the provider's handler once it exists.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Our own signing key only where the id_token is re-signed; otherwise oidc-provider's development key, as by default.
  const signingKey = options.audienceArray ? await rsaSigningKey() : undefined;
  const provider = new Provider(url, configuration(options, signingKey));
  const endSession = (options.routes ?? SEED_ROUTES).end_session;
  // The re-signed id_tokens and the provider's own, so that one coming back as id_token_hint is the provider's again.
  const reSigned = new Map<string, string>();
  provider.use(async (ctx, next) => {
    // RP-Initiated Logout §2: the logout request by GET or by form POST. oidc-provider takes POST only with its
    // enableHttpPostMethods, which needs SameSite=None cookies (so HTTPS); the form's fields become the query here.
    if (ctx.method === "POST" && ctx.path === endSession && ctx.is("application/x-www-form-urlencoded")) {
      ctx.querystring = await readBody(ctx.req);
      ctx.method = "GET";
    }
    const query = new URLSearchParams(ctx.querystring);
    const hint = reSigned.get(query.get("id_token_hint") ?? "");
    if (hint) {
      query.set("id_token_hint", hint);
      ctx.querystring = query.toString();
    }
    await next();
    if (options.withoutPkceMethods && ctx.oidc?.route === "discovery" && ctx.body && typeof ctx.body === "object")
      delete (ctx.body as Record<string, unknown>).code_challenge_methods_supported;
    if (signingKey && ctx.oidc?.route === "token" && ctx.status === 200)
      ctx.body = await withAudienceArray(ctx.body as Record<string, unknown>, signingKey, reSigned);
    // The seed's claim table returns iss and aud "always": userinfo carries them too.
    if (ctx.oidc?.route === "userinfo" && ctx.status === 200 && ctx.body && typeof ctx.body === "object")
      ctx.body = { ...ctx.body, iss: url, aud: ctx.oidc.client?.clientId };
  });
  if (process.env.STOCK_OIDC_DEBUG) provider.on("server_error", (_ctx, error) => console.error(error));
  const handle = provider.callback();
  const requests: StockProvider["requests"] = [];
  server.on("request", (request, response) => {
    const path = new URL(request.url ?? "/", url).pathname;
    requests.push({ method: request.method ?? "GET", path });
    void (options.beforeRequest?.(path) ?? Promise.resolve()).then(() => handle(request, response));
  });
  return {
    url,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
