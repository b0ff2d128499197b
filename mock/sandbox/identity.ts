// The identity API: a real OpenID Connect provider built on oidc-provider (a certified implementation), mounted
// at the paths of specs/identity.yaml (found by operationId). Authorization code with PKCE (S256 required),
// client_secret_post, RS256 id_tokens, refresh tokens only with offline_access, claims by scope, RP-initiated
// logout, and a plain HTML sign-in form (usable by a browser and by a script) with the seeds' sign-in methods
// and the demo accounts. The pieces: identity-routes (paths), identity-accounts (state, accounts, storage),
// identity-provider (oidc-provider's configuration), identity-pages (sign-in), identity-endpoints (checks).
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { type AccessPolicy, DEFAULT_ACCESS } from "./access.js";
import type { SandboxConfig } from "./config.js";
import { page } from "./http.js";
import { loadContract } from "../../lib/contract/index.js";
import { logoutEndpoints, sendOAuthError, tokenEndpoint } from "./identity-endpoints.js";
import { handleInteraction, INTERACTION_PREFIX, sendHtml, type SignInDirectory } from "./identity-pages.js";
import { createProvider } from "./identity-provider.js";
import { identityRoutes } from "./identity-routes.js";
import type { IdentityState } from "./identity-accounts.js";

export { type IdentityState, seedIdentity, SIGN_IN_METHODS } from "./identity-accounts.js";
export { SCOPES } from "./identity-provider.js";
export { identityRoutes, type IdentityRoutes } from "./identity-routes.js";

export interface IdentityProviderOptions {
  /** The issuer, which is also the base address, e.g. http://127.0.0.1:4020. */
  issuer: string;
  config: SandboxConfig["identity"];
  onChange?: () => void;
  /** The origins whose pages may call the token and userinfo endpoints, besides the client's redirect origins. */
  access?: AccessPolicy;
}

export interface IdentitySandbox {
  provider: Provider;
  /** The node:http request listener of the identity API. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * A method the contract has no operation for at one of its paths: 405 with Allow (RFC 9110 §15.5.6), worded as the
 * mock words it, where oidc-provider would answer a text/plain 404. OPTIONS (CORS) and HEAD go on to oidc-provider.
 */
function methodRefusal(method: string, path: string): [string, Record<string, string>] | undefined {
  const allowed = loadContract("identity")
    .allowedMethods(path)
    .map((m) => m.toUpperCase());
  if (allowed.length === 0 || allowed.includes(method) || method === "OPTIONS" || method === "HEAD") return undefined;
  const allow = allowed.join(", ");
  return [`no operation ${method} ${path} in the identity contract; ${path} has ${allow}`, { allow }];
}

export function createIdentitySandbox(state: IdentityState, options: IdentityProviderOptions): IdentitySandbox {
  const { config, issuer } = options;
  const routes = identityRoutes();
  const directory: SignInDirectory = {
    accounts: config.accounts,
    clientNames: new Map(config.clients.map((client) => [client.client_id, client.client_name ?? client.client_id])),
  };
  const provider = createProvider(issuer, {
    state,
    config,
    routes,
    directory,
    onChange: options.onChange ?? (() => {}),
    access: options.access ?? DEFAULT_ACCESS,
  });
  const callback = provider.callback();
  const token = tokenEndpoint(callback, issuer);
  const logout = logoutEndpoints(callback, routes.end_session);

  // oidc-provider's own pages live below the endpoints (e.g. the end-session confirmation, an authorization resumed).
  const served = (path: string) =>
    loadContract("identity").allowedMethods(path).length > 0 ||
    Object.values(routes).some((route) => path === route || path.startsWith(`${route}/`));
  const route = (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path.startsWith(INTERACTION_PREFIX)) return handleInteraction(provider, directory, req, res, path);
    // An OAuth error in JSON, as on every other path, where oidc-provider would answer a text/plain 404.
    if (!served(path))
      return Promise.resolve(sendOAuthError(res, 404, "invalid_request", `no identity endpoint at ${path}`));
    const wrongMethod = methodRefusal(req.method ?? "GET", path);
    if (wrongMethod) return Promise.resolve(sendOAuthError(res, 405, "invalid_request", ...wrongMethod));
    if (req.method === "POST" && path === routes.token) return token(req, res);
    if (req.method === "POST" && path === routes.end_session) return logout.post(req, res);
    if (req.method === "GET" && path === routes.end_session) return logout.get(req, res);
    return Promise.resolve(callback(req, res));
  };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((error: unknown) => {
      console.error("identity sandbox:", error);
      if (!res.headersSent) sendHtml(res, 500, page("Sandbox error", "<h1>The sandbox failed on this request</h1>"));
      else res.end();
    });
  };
  return { provider, listener };
}
