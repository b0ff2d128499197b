// Leave nothing live: at the end of an identity run, also after Ctrl-C or SIGTERM (the runner's cleanup ignores the
// interrupt), every refresh and access token the run obtained is revoked at the revocation_endpoint the discovery
// document advertises (RFC 7009 §2.1: a POST with the client's authentication, token and token_type_hint), through
// openid-client and the run's sender, so that each request is recorded, redacted and kept to the run's limits like any
// other. A request, so the send stage's; what became of each token is a fact of the report (its resources), not a
// verdict: RFC 7009 lets the provider refuse (§2.2.1: unsupported_token_type), and a provider that advertises no
// revocation_endpoint has no way to end a token before it expires (RFC 8414 §2 makes the member OPTIONAL).
import * as oidc from "openid-client";
import type { RunContext } from "../context.js";
import type { Exchange } from "../model/exchange.js";
import type { TrackedResource } from "../send/resources.js";
import type { CaseSender } from "../send/sender.js";
import type { IssuedToken, IssuedTokens, TokenKind } from "./issued-tokens.js";

const KIND_WORDS: Record<TokenKind, string> = { refresh_token: "refresh token", access_token: "access token" };

const httpUrl = (value: unknown): value is string =>
  typeof value === "string" && URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);

/** An openid-client configuration whose requests go through the run's sender, and the last exchange it sent. */
function revocationClient(context: RunContext, send: CaseSender, endpoint: string) {
  const { baseUrl, credentials } = context.options;
  const issuer = send.discovered("issuer");
  const config = new oidc.Configuration(
    { issuer: typeof issuer === "string" ? issuer : baseUrl, revocation_endpoint: endpoint },
    credentials.clientId ?? "",
    undefined,
    oidc.ClientSecretPost(credentials.clientSecret ?? ""),
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
  const revoke = httpUrl(endpoint) ? revocationClient(context, send, endpoint) : undefined;
  const outcomes = new Map<string, { kind: TokenKind; note?: string; obtainedBy: Set<string>; count: number }>();
  for (const token of tokens) {
    const note = revoke
      ? await revoke(token)
      : "the discovery document advertises no revocation_endpoint (RFC 7009; RFC 8414 §2): it stays valid until it expires";
    const key = `${token.kind} ${note ?? ""}`;
    const outcome = outcomes.get(key) ?? { kind: token.kind, note, obtainedBy: new Set<string>(), count: 0 };
    outcome.count += 1;
    outcome.obtainedBy.add(token.obtainedBy);
    outcomes.set(key, outcome);
  }
  return [...outcomes.values()].map(({ kind, note, obtainedBy, count }) => ({
    kind: KIND_WORDS[kind],
    id: `×${count}`,
    createdBy: obtainedBy.size === 1 ? [...obtainedBy][0]! : `${obtainedBy.size} token requests`,
    state: note ? "left behind" : "deleted",
    note: note ?? `revoked at ${String(endpoint)} (RFC 7009)`,
  }));
}
