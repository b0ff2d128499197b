// The identity API: a real OpenID Connect provider built on oidc-provider (a certified implementation), mounted
// at the paths of specs/identity.yaml. Authorization code with PKCE (S256 required), client_secret_post, RS256
// id_tokens, refresh tokens only with offline_access, claims by scope, RP-initiated logout, and a plain HTML
// sign-in form (usable by a browser and by a script) with the seeds' sign-in methods and the demo accounts.
import { randomBytes } from "node:crypto";
import { IncomingMessage, type ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider, { type Adapter, type AdapterPayload, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { describeErrors, requestSchemaPointer, schemaValidator } from "../../lib/openapi.js";
import type { DemoAccountConfig, SandboxConfig } from "./config.js";
import { escapeHtml, mediaTypeOf, page, parseForm } from "./http.js";
import { readBody } from "./read-body.js";

export interface IdentityState {
  /** The private RS256 key that signs id_tokens (its public half is served at /.well-known/jwks). */
  signingKey: JWK;
  /** Keys that sign the provider's cookies. */
  cookieKeys: string[];
  /** oidc-provider's records (sessions, grants, codes, tokens) by `Model:id`, with their expiry in epoch ms. */
  records: Record<string, { payload: AdapterPayload; expiresAt: number | null }>;
}

export async function seedIdentity(): Promise<IdentityState> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true, modulusLength: 2048 });
  const signingKey = { ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: `sandbox-${randomBytes(6).toString("hex")}` };
  return { signingKey, cookieKeys: [randomBytes(32).toString("base64url")], records: {} };
}

/** The paths of specs/identity.yaml. Discovery is always at /.well-known/openid-configuration. */
export const IDENTITY_ROUTES = {
  authorization: "/login/oauth/authorize",
  token: "/api/login/oauth/access_token",
  userinfo: "/api/userinfo",
  jwks: "/.well-known/jwks",
  end_session: "/api/logout",
} as const;

/** The scopes of the seeds. */
export const SCOPES = ["openid", "profile", "email", "wallets", "offline_access", "quests"] as const;
const INTERACTION_PREFIX = "/interaction/";
const FORM_LIMIT_BYTES = 56 * 1024;
const FORM = "application/x-www-form-urlencoded";

/** Sign-in methods of the seeds. Every method but e-mail is simulated: the sandbox confirms the demo account. */
export const SIGN_IN_METHODS = [
  { id: "messenger", label: "Continue with messenger", loginLabel: "Messenger account" },
  { id: "wallet", label: "Connect a blockchain wallet", loginLabel: "Wallet address" },
  { id: "email", label: "Continue with e-mail", loginLabel: "E-mail" },
  { id: "idp-a", label: "Continue with identity provider A", loginLabel: "Account at identity provider A" },
  { id: "idp-b", label: "Continue with identity provider B", loginLabel: "Account at identity provider B" },
] as const;
type SignInMethod = (typeof SIGN_IN_METHODS)[number]["id"];

/** The logins an account can use with one method (empty when the account has not linked that method). */
function loginsOf(account: DemoAccountConfig, method: SignInMethod): string[] {
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

function findAccountByLogin(accounts: DemoAccountConfig[], method: string, login: string, password: string): DemoAccountConfig | undefined {
  const known = SIGN_IN_METHODS.find((m) => m.id === method);
  if (!known) return undefined;
  const wanted = login.trim().replace(/^@/, "").toLowerCase();
  const account = accounts.find((candidate) => loginsOf(candidate, known.id).some((value) => value.toLowerCase() === wanted));
  if (account && known.id === "email" && account.password !== password) return undefined;
  return account;
}

/** oidc-provider's storage over the sandbox state, so sessions, grants and refresh tokens persist with --data. */
function stateAdapter(state: IdentityState, onChange: () => void): (model: string) => Adapter {
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
  return (model) => ({
    async upsert(id, payload, expiresIn) {
      const now = Date.now();
      for (const [key, record] of Object.entries(state.records)) if (record.expiresAt !== null && record.expiresAt <= now) delete state.records[key];
      state.records[`${model}:${id}`] = { payload, expiresAt: typeof expiresIn === "number" ? now + expiresIn * 1000 : null };
      onChange();
    },
    async find(id) {
      return live(`${model}:${id}`);
    },
    async findByUid(uid) {
      return findWhere(model, (payload) => payload.uid === uid);
    },
    async findByUserCode(userCode) {
      return findWhere(model, (payload) => payload.userCode === userCode);
    },
    async consume(id) {
      const record = state.records[`${model}:${id}`];
      if (record) record.payload.consumed = Math.floor(Date.now() / 1000);
      onChange();
    },
    async destroy(id) {
      delete state.records[`${model}:${id}`];
      onChange();
    },
    async revokeByGrantId(grantId) {
      for (const [key, record] of Object.entries(state.records)) if (record.payload.grantId === grantId) delete state.records[key];
      onChange();
    },
  });
}

export interface IdentityProviderOptions {
  /** The issuer, which is also the base address, e.g. http://127.0.0.1:4020. */
  issuer: string;
  config: SandboxConfig["identity"];
  onChange?: () => void;
}

export interface IdentitySandbox {
  provider: Provider;
  /** The node:http request listener of the identity API. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
}

export function createIdentitySandbox(state: IdentityState, options: IdentityProviderOptions): IdentitySandbox {
  const { config, issuer } = options;
  const accounts = config.accounts;
  const clientNames = new Map(config.clients.map((client) => [client.client_id, client.client_name ?? client.client_id]));

  const configuration: Configuration = {
    clients: config.clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      client_name: client.client_name,
      redirect_uris: client.redirect_uris,
      post_logout_redirect_uris: client.post_logout_redirect_uris ?? [],
      grant_types: client.scopes.includes("offline_access") ? ["authorization_code", "refresh_token"] : ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
      id_token_signed_response_alg: "RS256",
      scope: client.scopes.join(" "),
    })),
    clientAuthMethods: ["client_secret_post"],
    // Browser calls (userinfo, token) are allowed from the origins of the client's registered redirect_uris.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => URL.canParse(uri) && new URL(uri).origin === origin) ?? false,
    responseTypes: ["code"],
    routes: IDENTITY_ROUTES,
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
    jwks: { keys: [state.signingKey as never] },
    cookies: { keys: state.cookieKeys },
    adapter: stateAdapter(state, options.onChange ?? (() => {})),
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Interaction: 600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.body = page(
            "Sign out",
            `<h1>Sign out of ${escapeHtml(clientNames.get(ctx.oidc.client?.clientId ?? "") ?? "the sandbox")}?</h1>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button>`,
          );
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = page("Signed out", "<h1>You have been signed out</h1>");
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.find((candidate) => candidate.claims.sub === sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ ...account.claims }) };
    },
    async renderError(ctx, out) {
      ctx.type = "html";
      const title = ctx.path.startsWith(IDENTITY_ROUTES.end_session) ? "Sign-out error" : "Sign-in error";
      const reason = out.error_description ?? out.error;
      ctx.body = page(title, `<h1>${title}</h1><p>${escapeHtml(reason)}</p><p class="note">${escapeHtml(out.error)}</p>`);
    },
  };

  const provider = new Provider(issuer, configuration);

  /** oidc-provider ignores unknown scopes; the contract answers them with an invalid_scope error redirect. */
  async function refuseUnsupportedScope(ctx: KoaContextWithOIDC, query: URLSearchParams): Promise<boolean> {
    const unsupported = (query.get("scope") ?? "").split(" ").filter((scope) => scope && !(SCOPES as readonly string[]).includes(scope));
    if (unsupported.length === 0) return false;
    // Sent only to a redirect_uri registered for the client (RFC 6749 §4.1.2.1); otherwise oidc-provider shows its page.
    const client = await provider.Client.find(query.get("client_id") ?? "");
    const redirectUri = query.get("redirect_uri") ?? "";
    if (!client?.redirectUriAllowed(redirectUri)) return false;
    const target = new URL(redirectUri);
    target.searchParams.set("error", "invalid_scope");
    target.searchParams.set("error_description", `Unsupported scope: ${unsupported.join(" ")}`);
    if (query.has("state")) target.searchParams.set("state", query.get("state")!);
    target.searchParams.set("iss", issuer);
    ctx.status = 302;
    ctx.redirect(target.href);
    return true;
  }

  /** Where oidc-provider's answers differ from the contract, the sandbox answers as the contract says. */
  async function conformToContract(ctx: KoaContextWithOIDC): Promise<void> {
    const route = ctx.oidc?.route;
    if (route === "token") ctx.set("Pragma", "no-cache"); // RFC 6749 §5.1 asks for it; the contract documents it as optional
    if (route === "jwks") ctx.type = "application/json"; // oidc-provider sends application/jwk-set+json
    if (route === "userinfo" && ctx.status === 200 && ctx.body && typeof ctx.body === "object") {
      // The seeds' claim table returns iss and aud always, userinfo included (a quirk the contract encodes).
      ctx.body = { iss: provider.issuer, aud: ctx.oidc.client?.clientId, ...(ctx.body as object) };
    }
    if (ctx.status === 303 && ctx.method === "GET" && (route === "authorization" || route === "resume" || route === "end_session")) {
      const location = new URL(ctx.response.get("location"), issuer);
      const uid = location.origin === issuer && location.pathname.startsWith(INTERACTION_PREFIX) ? location.pathname.slice(INTERACTION_PREFIX.length) : undefined;
      if (uid) {
        // The contract's authorize endpoint answers with the sign-in form itself (200), not a hop to another page.
        const interaction = await provider.Interaction.find(uid);
        ctx.remove("Location");
        ctx.status = 200;
        ctx.type = "html";
        ctx.body = interaction ? renderInteraction(interaction) : page("Sign-in error", "<h1>Sign-in error</h1>");
      } else {
        ctx.status = 302; // the contract documents 302 for the redirects of these GET endpoints
      }
    }
  }

  provider.use(async (ctx, next) => {
    if (ctx.path.startsWith(IDENTITY_ROUTES.authorization) || ctx.path.startsWith(IDENTITY_ROUTES.end_session)) {
      // Browser navigations: their errors are HTML pages (the contract documents only text/html for them), also
      // for a client that sends no Accept header.
      ctx.req.headers.accept = "text/html";
    }
    if (ctx.method === "GET" && ctx.path === IDENTITY_ROUTES.authorization) {
      const query = new URLSearchParams(ctx.querystring);
      if (await refuseUnsupportedScope(ctx as KoaContextWithOIDC, query)) return;
      // oidc-provider follows OpenID Connect Core §11 and drops offline_access unless prompt=consent is sent. The
      // seeds issue a refresh token whenever offline_access is granted, and the sandbox's sign-in form is the
      // consent step, so the consent prompt is implied when the application does not send a prompt itself.
      if (!query.has("prompt") && (query.get("scope") ?? "").split(" ").includes("offline_access")) {
        query.set("prompt", "consent");
        ctx.querystring = query.toString();
      }
    }
    await next();
    await conformToContract(ctx as KoaContextWithOIDC);
  });

  function renderInteraction(interaction: InstanceType<Provider["Interaction"]>, error?: string): string {
    const uid = interaction.uid;
    const clientId = String(interaction.params.client_id ?? "");
    const clientName = clientNames.get(clientId) ?? clientId;
    const scopes = String(interaction.params.scope ?? "").split(" ").filter(Boolean);
    const asks = `<p>${escapeHtml(clientName)} asks for: ${scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(" ")}</p>`;
    const cancel = `<form method="post" action="${INTERACTION_PREFIX}${uid}/abort"><button type="submit">Cancel</button></form>`;
    const problem = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "";
    if (interaction.prompt.name !== "login" && interaction.session?.accountId) {
      const account = accounts.find((candidate) => candidate.claims.sub === interaction.session?.accountId);
      return page(
        `Continue to ${clientName}`,
        `<h1>Continue to ${escapeHtml(clientName)}</h1>${problem}${asks}
<p>Signed in as ${escapeHtml(account?.claims.name ?? interaction.session.accountId)}.</p>
<form method="post" action="${INTERACTION_PREFIX}${uid}/confirm"><button type="submit">Allow</button></form>${cancel}`,
      );
    }
    const methods = SIGN_IN_METHODS.map((method) => {
      const logins = accounts.flatMap((account) => loginsOf(account, method.id));
      const field =
        method.id === "email"
          ? `<label>E-mail <input name="login" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>`
          : `<label>${escapeHtml(method.loginLabel)} <select name="login">${logins.map((login) => `<option>${escapeHtml(login)}</option>`).join("")}</select></label>`;
      return `<form method="post" action="${INTERACTION_PREFIX}${uid}/login"><fieldset><legend>${escapeHtml(method.label)}</legend>
<input type="hidden" name="method" value="${method.id}">
${field}
<button type="submit">${escapeHtml(method.label)}</button></fieldset></form>`;
    }).join("\n");
    const demo = accounts
      .filter((account) => account.claims.email)
      .map((account) => `<tr><td>${escapeHtml(account.claims.name ?? account.claims.sub)}</td><td>${escapeHtml(account.claims.email)}</td><td><code>${escapeHtml(account.password)}</code></td></tr>`)
      .join("");
    return page(
      `Sign in to ${clientName}`,
      `<h1>Sign in to ${escapeHtml(clientName)}</h1>${problem}${asks}
${methods}
${cancel}
<h2>Demo accounts</h2><table><tr><th>Name</th><th>E-mail</th><th>Password</th></tr>${demo}</table>
<p class="note">Messenger, wallet and identity-provider sign-ins are simulated: pick a demo account.</p>`,
    );
  }

  function sendHtml(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(body);
  }

  async function grantFor(interaction: InstanceType<Provider["Interaction"]>, accountId: string): Promise<string> {
    const clientId = String(interaction.params.client_id);
    const grant = (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(String(interaction.params.scope ?? "openid"));
    return grant.save();
  }

  async function handleInteraction(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const [uid, action] = path.slice(INTERACTION_PREFIX.length).split("/");
    let interaction;
    try {
      interaction = await provider.interactionDetails(req, res);
    } catch {
      return sendHtml(res, 400, page("Sign-in expired", "<h1>This sign-in has expired</h1><p>Start again from the application.</p>"));
    }
    if (interaction.uid !== uid) return sendHtml(res, 400, page("Sign-in error", "<h1>Sign-in error</h1><p>The sign-in does not match this browser.</p>"));
    if (req.method === "GET" && action === undefined) return sendHtml(res, 200, renderInteraction(interaction));
    if (req.method !== "POST") return sendHtml(res, 405, page("Not allowed", "<h1>Use the sign-in form</h1>"));
    const body = await readBody(req, FORM_LIMIT_BYTES);
    if (body === undefined) return sendHtml(res, 413, page("Too large", "<h1>The form is too large</h1>"));
    const form = parseForm(body);
    const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
    if (action === "abort") {
      return provider.interactionFinished(req, res, { error: "access_denied", error_description: "The user cancelled the sign-in" }, { mergeWithLastSubmission: false });
    }
    if (action === "confirm" && interaction.session?.accountId) {
      const grantId = await grantFor(interaction, interaction.session.accountId);
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    }
    if (action === "login") {
      const account = findAccountByLogin(accounts, text("method"), text("login"), text("password"));
      if (!account) return sendHtml(res, 401, renderInteraction(interaction, "Unknown demo account or wrong password for this sign-in method."));
      const accountId = account.claims.sub;
      const grantId = await grantFor(interaction, accountId);
      return provider.interactionFinished(req, res, { login: { accountId, amr: [text("method")] }, consent: { grantId } }, { mergeWithLastSubmission: false });
    }
    return sendHtml(res, 404, page("Not found", "<h1>Unknown sign-in step</h1>"));
  }

  const tokenRequestValid = schemaValidator("identity", requestSchemaPointer("identity", "exchangeToken", FORM));
  const callback = provider.callback();

  /**
   * The token request checked against the contract's TokenRequest first. Requests without client credentials
   * go on to oidc-provider, which answers them with invalid_client (401) as RFC 6749 §5.2 says.
   */
  async function handleToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, FORM_LIMIT_BYTES);
    const oauthError = (error: string, description: string) => {
      res.writeHead(400, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", pragma: "no-cache" });
      res.end(JSON.stringify({ error, error_description: description.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, "'") }));
    };
    if (body === undefined) return oauthError("invalid_request", "the request body is too large");
    if (mediaTypeOf(req.headers["content-type"] ?? null) === FORM) {
      const form = parseForm(body);
      if (typeof form.grant_type === "string" && !["authorization_code", "refresh_token"].includes(form.grant_type)) {
        return oauthError("unsupported_grant_type", "Only authorization_code and refresh_token are supported.");
      }
      if (form.client_id !== undefined && form.client_secret !== undefined && !tokenRequestValid(form)) {
        // The oneOf over both grants reports every branch; the grant_type's own branch says what is wrong.
        const problems = (tokenRequestValid.errors ?? []).filter((error) => error.keyword !== "oneOf" && error.keyword !== "const");
        return oauthError("invalid_request", describeErrors(problems) || "the token request is malformed");
      }
    }
    callback(replayRequest(req, body), res);
  }

  const logoutRequestValid = schemaValidator("identity", requestSchemaPointer("identity", "logoutWithForm", FORM));

  /**
   * The contract's form-POST variant of logout (RP-Initiated Logout §2). oidc-provider accepts it only together
   * with SameSite=None cookies, which need HTTPS, so the sandbox hands the same parameters on as the GET variant.
   */
  async function handleLogoutPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, FORM_LIMIT_BYTES);
    const isForm = body !== undefined && (body.byteLength === 0 || mediaTypeOf(req.headers["content-type"] ?? null) === FORM);
    const form = isForm ? withoutEmptyValues(parseForm(body)) : undefined;
    if (form === undefined || !logoutRequestValid(form)) {
      return sendHtml(res, 400, page("Sign-out error", `<h1>Sign-out error</h1><p>Send the logout parameters as an ${FORM} form of at most ${FORM_LIMIT_BYTES} bytes.</p>`));
    }
    const query = new URLSearchParams(form as Record<string, string>).toString();
    callback(replayRequest(req, new Uint8Array(0), { method: "GET", url: `${IDENTITY_ROUTES.end_session}${query ? `?${query}` : ""}` }), res);
  }

  /** The GET variant of logout, checked against the same parameters as the form before oidc-provider sees it. */
  async function handleLogoutGet(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const query = withoutEmptyValues(Object.fromEntries(new URL(req.url ?? "/", "http://sandbox").searchParams));
    if (!logoutRequestValid(query)) {
      const problems = describeErrors(logoutRequestValid.errors ?? []);
      return sendHtml(res, 400, page("Sign-out error", `<h1>Sign-out error</h1><p>The logout parameters do not match the contract: ${escapeHtml(problems)}.</p>`));
    }
    const search = new URLSearchParams(query as Record<string, string>).toString();
    req.url = `${IDENTITY_ROUTES.end_session}${search ? `?${search}` : ""}`;
    callback(req, res);
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const work = path.startsWith(INTERACTION_PREFIX)
      ? handleInteraction(req, res, path)
      : req.method === "POST" && path === IDENTITY_ROUTES.token
        ? handleToken(req, res)
        : req.method === "POST" && path === IDENTITY_ROUTES.end_session
          ? handleLogoutPost(req, res)
          : req.method === "GET" && path === IDENTITY_ROUTES.end_session
            ? handleLogoutGet(req, res)
            : Promise.resolve(callback(req, res));
    work.catch((error: unknown) => {
      console.error("identity sandbox:", error);
      if (!res.headersSent) sendHtml(res, 500, page("Sandbox error", "<h1>The sandbox failed on this request</h1>"));
      else res.end();
    });
  };

  return { provider, listener };
}

/**
 * Parameters without the ones sent without a value, which count as omitted (RFC 6749 §3.1): `client_id=` means the
 * same by GET and by form POST.
 */
function withoutEmptyValues<T extends Record<string, unknown>>(params: T): T {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== "")) as T;
}

/** A fresh request carrying a body that was already read, for handing on to oidc-provider's own body parser. */
function replayRequest(original: IncomingMessage, body: Uint8Array, target: { method?: string; url?: string } = {}): IncomingMessage {
  const copy = new IncomingMessage(original.socket);
  copy.method = target.method ?? original.method;
  copy.url = target.url ?? original.url;
  copy.httpVersion = original.httpVersion;
  copy.headers = { ...original.headers, "content-length": String(body.byteLength) };
  copy.rawHeaders = original.rawHeaders;
  copy.complete = true; // otherwise ending the copy counts as an aborted request and closes the socket
  copy.push(Buffer.from(body));
  copy.push(null);
  return copy;
}
