// oidc-provider configured as the contract's identity API: clients from the config, the contract's endpoint
// paths (by operationId), scopes and claims of the seeds, PKCE S256 required, and the middleware that makes its
// answers the contract's where they differ (sign-in form at authorize, 302 redirects, iss/aud in userinfo).
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { type AccessPolicy, originAllowed } from "./access.js";
import type { SandboxConfig } from "./config.js";
import { escapeHtml, omit, page } from "./http.js";
import { type IdentityState, stateAdapter } from "./identity-accounts.js";
import { INTERACTION_PREFIX, renderInteraction, type SignInDirectory } from "./identity-pages.js";
import { type IdentityRoutes } from "./identity-routes.js";

/** The scopes of the seeds. */
export const SCOPES = ["openid", "profile", "email", "wallets", "offline_access", "quests"] as const;

const TTL = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  IdToken: 3600,
  RefreshToken: 14 * 24 * 3600,
  Interaction: 600,
  Session: 14 * 24 * 3600,
  Grant: 14 * 24 * 3600,
};

function clients(config: SandboxConfig["identity"]): Configuration["clients"] {
  return config.clients.map((client) => ({
    client_id: client.client_id,
    client_secret: client.client_secret,
    client_name: client.client_name,
    redirect_uris: client.redirect_uris,
    post_logout_redirect_uris: client.post_logout_redirect_uris ?? [],
    grant_types: client.scopes.includes("offline_access")
      ? ["authorization_code", "refresh_token"]
      : ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "client_secret_post",
    id_token_signed_response_alg: "RS256",
    scope: client.scopes.join(" "),
  }));
}

function logoutPages(directory: SignInDirectory): NonNullable<Configuration["features"]>["rpInitiatedLogout"] {
  return {
    enabled: true,
    logoutSource: (ctx, form) => {
      ctx.body = page(
        "Sign out",
        `<h1>Sign out of ${escapeHtml(directory.clientNames.get(ctx.oidc.client?.clientId ?? "") ?? "the sandbox")}?</h1>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button>`,
      );
      return Promise.resolve();
    },
    postLogoutSuccessSource: (ctx) => {
      ctx.body = page("Signed out", "<h1>You have been signed out</h1>");
      return Promise.resolve();
    },
  };
}

export interface ProviderSetup {
  state: IdentityState;
  config: SandboxConfig["identity"];
  routes: IdentityRoutes;
  directory: SignInDirectory;
  onChange: () => void;
  /** Who else may call the token and userinfo endpoints from a browser page. */
  access: AccessPolicy;
}

/** oidc-provider's configuration for the sandbox. */
export function providerConfiguration({
  state,
  config,
  routes,
  directory,
  onChange,
  access,
}: ProviderSetup): Configuration {
  return {
    clients: clients(config),
    clientAuthMethods: ["client_secret_post"],
    // Browser calls (userinfo, token) are allowed from the origins of the client's registered redirect_uris, and from
    // those the other APIs answer (access.ts): the docs site's console runs on its own loopback port, in dev and
    // preview alike, and a site published elsewhere is let in with --allowed-origin, as for links, catalog and pay.
    clientBasedCORS: (ctx, origin, client) =>
      originAllowed(access, origin, ctx.host) ||
      (client.redirectUris?.some((uri) => URL.canParse(uri) && new URL(uri).origin === origin) ?? false),
    responseTypes: ["code"],
    routes: omit(routes, "discovery"),
    scopes: [...SCOPES],
    claims: {
      openid: ["sub"],
      profile: ["name", "preferred_username", "picture", "tg_id", "tg_username"],
      email: ["email", "email_verified"],
      wallets: ["wallets"],
    },
    // The seeds let applications read the claims from the id_token too, not only from userinfo.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    jwks: { keys: [state.signingKey] },
    cookies: { keys: state.cookieKeys },
    adapter: stateAdapter(state, onChange),
    ttl: TTL,
    // oidc-provider also enables pushed authorization requests (RFC 9126), DPoP (RFC 9449) and resource indicators
    // (RFC 8707) by default; the contract has none of them, so a client built against the sandbox must not find them.
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      resourceIndicators: { enabled: false },
      rpInitiatedLogout: logoutPages(directory),
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
    findAccount(_ctx, sub) {
      const account = config.accounts.find((candidate) => candidate.claims.sub === sub);
      return Promise.resolve(account && { accountId: sub, claims: () => Promise.resolve({ ...account.claims }) });
    },
    renderError(ctx, out) {
      ctx.type = "html";
      const title = ctx.path.startsWith(routes.end_session) ? "Sign-out error" : "Sign-in error";
      const reason = out.error_description ?? out.error;
      ctx.body = page(
        title,
        `<h1>${title}</h1><p>${escapeHtml(reason)}</p><p class="note">${escapeHtml(out.error)}</p>`,
      );
      return Promise.resolve();
    },
  };
}

/** oidc-provider ignores unknown scopes; the contract answers them with an invalid_scope error redirect. */
async function refuseUnsupportedScope(
  provider: Provider,
  ctx: KoaContextWithOIDC,
  query: URLSearchParams,
): Promise<boolean> {
  const unsupported = (query.get("scope") ?? "")
    .split(" ")
    .filter((scope) => scope && !(SCOPES as readonly string[]).includes(scope));
  if (unsupported.length === 0) return false;
  // Sent only to a redirect_uri registered for the client (RFC 6749 §4.1.2.1); otherwise oidc-provider shows its page.
  const client = await provider.Client.find(query.get("client_id") ?? "");
  const redirectUri = query.get("redirect_uri") ?? "";
  if (!client?.redirectUriAllowed(redirectUri)) return false;
  const target = new URL(redirectUri);
  target.searchParams.set("error", "invalid_scope");
  target.searchParams.set("error_description", `Unsupported scope: ${unsupported.join(" ")}`);
  const state = query.get("state");
  if (state !== null) target.searchParams.set("state", state);
  target.searchParams.set("iss", provider.issuer);
  ctx.status = 302;
  ctx.redirect(target.href);
  return true;
}

/** Where oidc-provider's answers differ from the contract, the sandbox answers as the contract says. */
async function conformToContract(
  provider: Provider,
  directory: SignInDirectory,
  ctx: KoaContextWithOIDC,
): Promise<void> {
  const route = ctx.oidc?.route;
  if (route === "token") ctx.set("Pragma", "no-cache"); // RFC 6749 §5.1 asks for it; the contract documents it as optional
  if (route === "jwks") ctx.type = "application/json"; // oidc-provider sends application/jwk-set+json
  if (route === "userinfo" && ctx.status === 200 && ctx.body && typeof ctx.body === "object") {
    // The seeds' claim table returns iss and aud always, userinfo included (a quirk the contract encodes).
    ctx.body = { iss: provider.issuer, aud: ctx.oidc.client?.clientId, ...ctx.body };
  }
  if (
    ctx.status !== 303 ||
    ctx.method !== "GET" ||
    !(route === "authorization" || route === "resume" || route === "end_session")
  )
    return;
  const location = new URL(ctx.response.get("location"), provider.issuer);
  const uid =
    location.origin === provider.issuer && location.pathname.startsWith(INTERACTION_PREFIX)
      ? location.pathname.slice(INTERACTION_PREFIX.length)
      : undefined;
  if (!uid) {
    ctx.status = 302; // the contract documents 302 for the redirects of these GET endpoints
    return;
  }
  // The contract's authorize endpoint answers with the sign-in form itself (200), not a hop to another page.
  const interaction = await provider.Interaction.find(uid);
  ctx.remove("Location");
  ctx.status = 200;
  ctx.type = "html";
  ctx.body = interaction ? renderInteraction(directory, interaction) : page("Sign-in error", "<h1>Sign-in error</h1>");
}

/** The provider with the middleware that makes its answers the contract's. */
export function createProvider(issuer: string, setup: ProviderSetup): Provider {
  const provider = new Provider(issuer, providerConfiguration(setup));
  const { routes, directory } = setup;
  provider.use(async (ctx, next) => {
    if (ctx.path.startsWith(routes.authorization) || ctx.path.startsWith(routes.end_session)) {
      // Browser navigations: their errors are HTML pages (the contract documents only text/html for them), also
      // for a client that sends no Accept header.
      ctx.req.headers.accept = "text/html";
    }
    if (ctx.method === "GET" && ctx.path === routes.authorization) {
      const query = new URLSearchParams(ctx.querystring);
      if (await refuseUnsupportedScope(provider, ctx as KoaContextWithOIDC, query)) return;
      // oidc-provider follows OpenID Connect Core §11 and drops offline_access unless prompt=consent is sent. The
      // seeds issue a refresh token whenever offline_access is granted, and the sandbox's sign-in form is the
      // consent step, so the consent prompt is implied when the application does not send a prompt itself.
      if (!query.has("prompt") && (query.get("scope") ?? "").split(" ").includes("offline_access")) {
        query.set("prompt", "consent");
        ctx.querystring = query.toString();
      }
    }
    await next();
    await conformToContract(provider, directory, ctx as KoaContextWithOIDC);
  });
  return provider;
}
