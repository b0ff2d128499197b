// Leave nothing live: at the end of an identity run, also after Ctrl-C or SIGTERM (the runner's cleanup ignores the
// interrupt), every refresh and access token the run obtained is revoked at the revocation_endpoint the discovery
// document advertises (RFC 7009 §2.1: a POST with the client's authentication, token and token_type_hint), through
// openid-client and the run's sender, so that each request is recorded, redacted and kept to the run's limits like any
// other, and every session it opened is ended (endOpenedSessions, below). A request, so the send stage's; what became
// of each token is a fact of the report (its resources), not a verdict: RFC 7009 lets the provider refuse (§2.2.1:
// unsupported_token_type), and a provider that advertises no revocation_endpoint has no way to end a token before it
// expires (RFC 8414 §2 makes the member OPTIONAL).
import * as oidc from "openid-client";
import type { RunContext } from "../context.js";
import type { Exchange } from "../model/exchange.js";
import type { Navigation } from "../model/identity-facts.js";
import type { TrackedResource } from "../send/resources.js";
import type { CaseSender } from "../send/sender.js";
import type { DriverSession, SignInDriver } from "../sign-in/driver.js";
import { FormDriver } from "../sign-in/form.js";
import { newState, sameEndpoint } from "./flow.js";
import type { IssuedToken, IssuedTokens, TokenKind } from "./issued-tokens.js";
import { httpUrl } from "./paths.js";
import type { OpenedSessions } from "./sessions.js";

const KIND_WORDS: Record<TokenKind, string> = { refresh_token: "refresh token", access_token: "access token" };

/**
 * An openid-client configuration whose requests go through the run's sender, and the last exchange it sent; as the
 * run's client, or as the second one (`second`) for a token issued to it.
 */
function revocationClient(context: RunContext, send: CaseSender, endpoint: string, second = false) {
  const { baseUrl, credentials } = context.options;
  const issuer = send.discovered("issuer");
  const config = new oidc.Configuration(
    { issuer: typeof issuer === "string" ? issuer : baseUrl, revocation_endpoint: endpoint },
    (second ? credentials.secondClientId : credentials.clientId) ?? "",
    undefined,
    oidc.ClientSecretPost((second ? credentials.secondClientSecret : credentials.clientSecret) ?? ""),
  );
  // The run goes where the user pointed it, a loopback provider over http included.
  if (new URL(endpoint).protocol === "http:") oidc.allowInsecureRequests(config);
  let last: Exchange | undefined;
  config[oidc.customFetch] = async (url, init) => {
    const exchange = await send.sendAsIs({
      method: init.method ?? "POST",
      url,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      // openid-client sends the revocation's form as URLSearchParams.
      ...(init.body instanceof URLSearchParams || typeof init.body === "string" ? { body: init.body.toString() } : {}),
    });
    last = exchange;
    if (!exchange.response) throw new Error(exchange.error ?? "no response");
    const { status, headers, text } = exchange.response;
    return new Response([204, 205, 304].includes(status) ? null : text, { status, headers });
  };
  /** Revokes one token: undefined when revoked (200, RFC 7009 §2.2), else why it is left behind. */
  return async (token: IssuedToken): Promise<string | undefined> => {
    last = undefined;
    try {
      await oidc.tokenRevocation(config, token.value, { token_type_hint: token.kind });
      return undefined;
    } catch (error) {
      const exchange = last as Exchange | undefined;
      if (exchange?.response) return `revocation refused with status ${exchange.response.status}`;
      return `revocation not sent: ${exchange?.error ?? (error as Error).message}`;
    }
  };
}

/** What became of the resources, one report entry per kind and outcome (the console lists each on a line). */
class Outcomes {
  private readonly entries = new Map<
    string,
    Omit<TrackedResource, "id" | "createdBy"> & { by: Set<string>; count: number }
  >();

  add(kind: string, createdBy: string, state: "deleted" | "left behind", note: string): void {
    const key = `${kind} ${state} ${note}`;
    const entry = this.entries.get(key) ?? { kind, state, note, by: new Set<string>(), count: 0 };
    entry.count += 1;
    entry.by.add(createdBy);
    this.entries.set(key, entry);
  }

  resources(many: string): TrackedResource[] {
    return [...this.entries.values()].map(({ kind, state, note, by, count }) => ({
      kind,
      id: `×${count}`,
      createdBy: by.size === 1 ? [...by][0]! : `${by.size} ${many}`,
      state,
      note,
    }));
  }
}

/**
 * Revokes every token the run obtained and returns what became of them, one entry per kind and outcome (the console
 * lists each entry on a line, without any token value).
 */
export async function revokeIssuedTokens(
  context: RunContext,
  send: CaseSender,
  issued: IssuedTokens,
): Promise<TrackedResource[]> {
  const tokens = issued.all;
  if (tokens.length === 0) return [];
  const endpoint = send.discovered("revocation_endpoint");
  const revokers = httpUrl(endpoint)
    ? [revocationClient(context, send, endpoint), revocationClient(context, send, endpoint, true)]
    : undefined;
  const outcomes = new Outcomes();
  for (const token of tokens) {
    const revoke = revokers?.[token.clientId === undefined ? 0 : 1];
    const note = revoke
      ? await revoke(token)
      : "the discovery document advertises no revocation_endpoint (RFC 7009; RFC 8414 §2): it stays valid until it expires";
    if (note) outcomes.add(KIND_WORDS[token.kind], token.obtainedBy, "left behind", note);
    else outcomes.add(KIND_WORDS[token.kind], token.obtainedBy, "deleted", `revoked at ${String(endpoint)} (RFC 7009)`);
  }
  return outcomes.resources("token requests");
}

// Every session the run opened is ended by RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2) at the
// end_session_endpoint the discovery document advertises, in that session's own cookies (its cookie jar or browser
// context: the cookie is what tells the provider which session to end), with the latest id_token issued in it as
// id_token_hint, the client_id, the registered post_logout_redirect_uri and a state, and the provider's confirmation
// page answered as its user would (the driver presses its "sign out" button: §2 lets the provider ask the End-User).
// Ended when the provider sends the browser back to the post_logout_redirect_uri, which it does once it has logged
// the End-User out (§3). A request, so the send stage's, as the revocations; what became of each session is a fact of
// the report, not a verdict (RP-Initiated Logout is OPTIONAL: a provider may advertise no way to end a session).

const BROWSER_SESSION = "browser session";
const WITHOUT_SIGN_IN = "session without sign-in";

/** Ends every session the run opened, and closes the sign-in drivers; what became of each, one entry per outcome. */
export async function endOpenedSessions(
  context: RunContext,
  send: CaseSender,
  sessions: OpenedSessions,
): Promise<TrackedResource[]> {
  const endpoint = send.discovered("end_session_endpoint");
  const registered = context.options.identity?.postLogoutRedirectUri;
  const outcomes = new Outcomes();
  const end = async (driver: SignInDriver, session: DriverSession, kind: string, openedBy: string) => {
    if (!httpUrl(endpoint)) {
      const note = `the discovery document advertises no end_session_endpoint (OpenID Connect RP-Initiated Logout 1.0 §2.1): it lasts until the provider expires it`;
      return outcomes.add(kind, openedBy, "left behind", note);
    }
    const url = new URL(endpoint);
    const query = {
      id_token_hint: session.idToken,
      client_id: context.options.credentials.clientId,
      post_logout_redirect_uri: registered,
      state: registered ? newState() : undefined,
    };
    // A query the endpoint carries is kept, as at the authorization endpoint (RFC 6749 §3.1).
    for (const [name, value] of Object.entries(query)) if (value) url.searchParams.set(name, value);
    const navigation = await driver
      .navigateIn(session, url.href, {
        until: (next) => registered !== undefined && sameEndpoint(next, registered),
        purpose: "sign out at the end of the run (RP-initiated logout of a session the run opened)",
      })
      .catch((error: Error): Navigation => ({ failure: error.message.split("\n")[0], pages: 0 }));
    if (navigation.arrived)
      return outcomes.add(kind, openedBy, "deleted", `ended by RP-initiated logout at ${endpoint}`);
    const note = registered
      ? `the logout at ${endpoint} did not come back to the post_logout_redirect_uri: ${navigation.failure ?? "no redirect"}`
      : `logout sent to ${endpoint}, but without --post-logout-redirect-uri the provider sends the browser to no address of the run's, so the run cannot tell whether it ended`;
    return outcomes.add(kind, openedBy, "left behind", note);
  };
  try {
    for (const driver of sessions.signInDrivers)
      for (const session of await driver.sessionsToEnd())
        await end(driver, session, BROWSER_SESSION, `the ${driver.name} driver's sign-ins`);
    for (const opened of sessions.withoutSignIn) {
      // As the request that opened it was sent: plain HTTP, with the cookie its answer set.
      const driver = new FormDriver((request) => send.sendAsIs(request), {}, opened.setCookies);
      await end(driver, driver.current, WITHOUT_SIGN_IN, opened.openedBy);
    }
  } finally {
    for (const driver of sessions.signInDrivers) await driver.close();
  }
  return outcomes.resources("requests");
}
