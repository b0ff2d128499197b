// `contracts sandbox sign-in`: signs a demo user in at a running sandbox, as a browser would (the authorize
// request with a fresh PKCE pair, the sandbox's e-mail form, the redirect back), and prints what the identity
// guide's curl commands and the docs site's consoles need as shell assignments: a fresh, unused CODE with its
// CODE_VERIFIER, and the ACCESS_TOKEN, REFRESH_TOKEN and ID_TOKEN of a second sign-in that this command exchanged
// itself.
// `eval "$(npx contracts sandbox sign-in)"` sets them.
import { parseArgs } from "node:util";
import * as oidc from "openid-client";
import { parsePortAssignments, splitList, UsageError } from "../../lib/cli.js";
import { defaultConfig } from "./config.js";
import { DEFAULT_SANDBOX_PORTS } from "./http.js";

export const SIGN_IN_USAGE = `contracts sandbox sign-in [--issuer <url>] [--client-id <id>] [--client-secret <secret>] [--redirect-uri <uri>] [--login <e-mail>] [--password <password>] [--scope <scope>]
  Sign a user in at a running sandbox and print, as shell assignments for eval, a fresh CODE and its
  CODE_VERIFIER (not exchanged), and the ACCESS_TOKEN, REFRESH_TOKEN and ID_TOKEN (a logout's id_token_hint) of a
  second, exchanged sign-in.
  Defaults: the sandbox's demo client and alice's demo account, at the identity address \`contracts sandbox\`
  takes from the same environment (SANDBOX_HOST, SANDBOX_BASE_PORT, SANDBOX_PORTS; http://127.0.0.1:4020).
`;

interface SignInOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  login: string;
  password: string;
  scope: string;
}

export async function runSignInCommand(argv: string[]): Promise<number> {
  const demo = defaultConfig().identity;
  const { values } = parseArgs({
    args: argv,
    options: {
      issuer: { type: "string", default: sandboxIssuer() },
      "client-id": { type: "string", default: demo.clients[0]!.client_id },
      "client-secret": { type: "string", default: demo.clients[0]!.client_secret ?? "" },
      "redirect-uri": { type: "string", default: demo.clients[0]!.redirect_uris[0] ?? "" },
      login: { type: "string", default: demo.accounts[0]!.claims.email ?? "" },
      password: { type: "string", default: demo.accounts[0]!.password },
      scope: { type: "string", default: "openid profile email offline_access" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(SIGN_IN_USAGE);
    return 0;
  }
  const options: SignInOptions = {
    issuer: values.issuer,
    clientId: values["client-id"],
    clientSecret: values["client-secret"],
    redirectUri: values["redirect-uri"],
    login: values.login,
    password: values.password,
    scope: values.scope,
  };
  const config = await oidc
    .discovery(new URL(options.issuer), options.clientId, options.clientSecret, oidc.ClientSecretPost(), {
      execute: [oidc.allowInsecureRequests],
    })
    .catch((error: Error) => {
      throw new UsageError(
        `no sandbox identity at ${options.issuer} (${error.message}): start \`contracts sandbox\``,
        1,
      );
    });
  const fresh = await signIn(config, options);
  const exchanged = await signIn(config, options);
  const tokens = await oidc.authorizationCodeGrant(config, exchanged.callback, {
    pkceCodeVerifier: exchanged.verifier,
    expectedState: exchanged.state,
  });
  const assignments = {
    CODE: fresh.callback.searchParams.get("code")!,
    CODE_VERIFIER: fresh.verifier,
    ACCESS_TOKEN: tokens.access_token,
    REFRESH_TOKEN: tokens.refresh_token ?? "",
    // The id_token_hint of a logout (the docs site's logout console, RP-Initiated Logout §2).
    ID_TOKEN: tokens.id_token ?? "",
  };
  for (const [name, value] of Object.entries(assignments)) process.stdout.write(`export ${name}='${value}'\n`);
  return 0;
}

/** Where `contracts sandbox`, started in the same environment, serves identity. */
function sandboxIssuer(): string {
  const host = process.env.SANDBOX_HOST ?? "127.0.0.1";
  const ports = parsePortAssignments(process.env.SANDBOX_BASE_PORT, splitList(process.env.SANDBOX_PORTS));
  return `http://${host.includes(":") ? `[${host}]` : host}:${ports.identity ?? DEFAULT_SANDBOX_PORTS.identity}`;
}

/** Authorize → the sandbox's sign-in form → its e-mail form submitted → the redirect back with code and state. */
async function signIn(
  config: oidc.Configuration,
  options: SignInOptions,
): Promise<{ callback: URL; verifier: string; state: string }> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorize = oidc.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri,
    scope: options.scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  });
  return { callback: await signInAtSandbox(authorize, options), verifier, state };
}

/**
 * What a person does in a browser between an application's redirect to the sandbox's authorize URL and the
 * redirect back: the e-mail form filled in and submitted, the redirects followed with their cookies. Returns the
 * address the browser reaches at `redirectUri` (with code and state), without requesting it.
 */
export async function signInAtSandbox(
  authorize: URL,
  options: { redirectUri: string; login: string; password: string },
): Promise<URL> {
  const agent = new UserAgent(options.redirectUri);
  const page = await agent.visit(authorize.href, { method: "GET" });
  const form = page.html.split("<form").find((chunk) => chunk.includes('value="email"'));
  const action = form && /action="([^"]+)"/.exec(form)?.[1];
  if (!action) throw new UsageError(`${authorize.origin} showed no e-mail sign-in form: is it the sandbox?`, 1);
  const done = await agent.visit(new URL(action.replaceAll("&amp;", "&"), page.url).href, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ method: "email", login: options.login, password: options.password }).toString(),
  });
  const callback = new URL(done.url);
  if (!done.url.startsWith(options.redirectUri) || !callback.searchParams.has("code"))
    throw new UsageError(`the sign-in of ${options.login} did not come back with a code (wrong password?)`, 1);
  return callback;
}

/**
 * What a person who presses Cancel on the sandbox's sign-in page does: the Cancel form submitted, the redirects
 * followed. Returns the address the browser reaches at `redirectUri` (with `error=access_denied` and state).
 */
export async function cancelAtSandbox(authorize: URL, options: { redirectUri: string }): Promise<URL> {
  const agent = new UserAgent(options.redirectUri);
  const page = await agent.visit(authorize.href, { method: "GET" });
  const action = /<form method="post" action="([^"]+\/abort)"/.exec(page.html)?.[1];
  if (!action) throw new UsageError(`${authorize.origin} showed no Cancel button: is it the sandbox?`, 1);
  const done = await agent.visit(new URL(action.replaceAll("&amp;", "&"), page.url).href, { method: "POST" });
  if (!done.url.startsWith(options.redirectUri))
    throw new UsageError(`cancelling the sign-in did not come back to ${options.redirectUri}`, 1);
  return new URL(done.url);
}

/** Cookies kept, redirects followed by hand up to the application's redirect_uri, where nobody need listen. */
class UserAgent {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly stopAt: string) {}

  async visit(url: string, init: RequestInit): Promise<{ url: string; html: string }> {
    let current = url;
    let request = init;
    for (let hop = 0; hop < 10; hop++) {
      const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      const response = await fetch(current, {
        ...request,
        redirect: "manual",
        headers: { ...(request.headers as Record<string, string>), cookie },
      });
      for (const line of response.headers.getSetCookie()) {
        const [name, ...value] = line.split(";")[0]!.trim().split("=");
        this.cookies.set(name!, value.join("="));
      }
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location)
        return { url: current, html: await response.text() };
      current = new URL(location, current).href;
      if (current.startsWith(this.stopAt)) return { url: current, html: "" };
      request = { method: "GET" };
    }
    throw new UsageError(`too many redirects from ${url}`, 1);
  }
}
