// The identity sandbox's sign-in pages: the form oidc-provider's interactions are answered with (every sign-in
// method of the seeds, the demo accounts), the consent step, and the form posts that finish an interaction.
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { findAccountByLogin, loginsOf, SIGN_IN_METHODS } from "./identity-accounts.js";
import type { DemoAccountConfig } from "./config.js";
import { parseForm } from "../../lib/contract/index.js";
import { escapeHtml, page } from "./http.js";
import { ABORTED, logAborted, readBody } from "./read-body.js";

export const INTERACTION_PREFIX = "/interaction/";
export const FORM_LIMIT_BYTES = 56 * 1024;

type Interaction = InstanceType<Provider["Interaction"]>;

/** A text parameter of the interaction's authorization request ("" when absent). */
function param(interaction: Interaction, name: string): string {
  const value = interaction.params[name];
  return typeof value === "string" ? value : "";
}

/** What the pages show: the demo accounts and the clients' display names. */
export interface SignInDirectory {
  accounts: DemoAccountConfig[];
  clientNames: Map<string, string>;
}

export function sendHtml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(body);
}

function methodForms(directory: SignInDirectory, uid: string): string {
  return SIGN_IN_METHODS.map((method) => {
    const logins = directory.accounts.flatMap((account) => loginsOf(account, method.id));
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
}

function demoAccountsTable(directory: SignInDirectory): string {
  const rows = directory.accounts
    .filter((account) => account.claims.email)
    .map(
      (account) =>
        `<tr><td>${escapeHtml(account.claims.name ?? account.claims.sub)}</td><td>${escapeHtml(account.claims.email)}</td><td><code>${escapeHtml(account.password)}</code></td></tr>`,
    )
    .join("");
  return `<h2>Demo accounts</h2><table><tr><th>Name</th><th>E-mail</th><th>Password</th></tr>${rows}</table>`;
}

/** The page of an interaction: the sign-in form, or the consent step when the browser is signed in already. */
export function renderInteraction(directory: SignInDirectory, interaction: Interaction, error?: string): string {
  const uid = interaction.uid;
  const clientId = param(interaction, "client_id");
  const clientName = directory.clientNames.get(clientId) ?? clientId;
  const scopes = param(interaction, "scope").split(" ").filter(Boolean);
  const asks = `<p>${escapeHtml(clientName)} asks for: ${scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(" ")}</p>`;
  const cancel = `<form method="post" action="${INTERACTION_PREFIX}${uid}/abort"><button type="submit">Cancel</button></form>`;
  const problem = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "";
  const accountId = interaction.session?.accountId;
  if (interaction.prompt.name !== "login" && accountId) {
    const account = directory.accounts.find((candidate) => candidate.claims.sub === accountId);
    return page(
      `Continue to ${clientName}`,
      `<h1>Continue to ${escapeHtml(clientName)}</h1>${problem}${asks}
<p>Signed in as ${escapeHtml(account?.claims.name ?? accountId)}.</p>
<form method="post" action="${INTERACTION_PREFIX}${uid}/confirm"><button type="submit">Allow</button></form>${cancel}`,
    );
  }
  return page(
    `Sign in to ${clientName}`,
    `<h1>Sign in to ${escapeHtml(clientName)}</h1>${problem}${asks}
${methodForms(directory, uid)}
${cancel}
${demoAccountsTable(directory)}
<p class="note">Messenger, wallet and identity-provider sign-ins are simulated: pick a demo account.</p>`,
  );
}

async function grantFor(provider: Provider, interaction: Interaction, accountId: string): Promise<string> {
  const clientId = param(interaction, "client_id");
  const grant =
    (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ??
    new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(param(interaction, "scope") || "openid");
  return grant.save();
}

/** Finishes an interaction with a posted form: abort, confirm (consent) or login. */
async function finishInteraction(
  provider: Provider,
  directory: SignInDirectory,
  interaction: Interaction,
  action: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readBody(req, FORM_LIMIT_BYTES);
  if (body === ABORTED) return logAborted("identity", req);
  if (body === undefined) return sendHtml(res, 413, page("Too large", "<h1>The form is too large</h1>"));
  const form = parseForm(body);
  const text = (name: string) => {
    const value = form[name];
    return typeof value === "string" ? value : "";
  };
  if (action === "abort") {
    return provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "The user cancelled the sign-in" },
      { mergeWithLastSubmission: false },
    );
  }
  if (action === "confirm" && interaction.session?.accountId) {
    const grantId = await grantFor(provider, interaction, interaction.session.accountId);
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  if (action === "login") {
    const account = findAccountByLogin(directory.accounts, text("method"), text("login"), text("password"));
    if (!account)
      return sendHtml(
        res,
        401,
        renderInteraction(directory, interaction, "Unknown demo account or wrong password for this sign-in method."),
      );
    const accountId = account.claims.sub;
    const grantId = await grantFor(provider, interaction, accountId);
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId, amr: [text("method")] }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }
  return sendHtml(res, 404, page("Not found", "<h1>Unknown sign-in step</h1>"));
}

/** Serves `/interaction/<uid>[/<action>]`: the page by GET, its forms by POST. */
export async function handleInteraction(
  provider: Provider,
  directory: SignInDirectory,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const [uid, action] = path.slice(INTERACTION_PREFIX.length).split("/");
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(req, res);
  } catch {
    return sendHtml(
      res,
      400,
      page("Sign-in expired", "<h1>This sign-in has expired</h1><p>Start again from the application.</p>"),
    );
  }
  if (interaction.uid !== uid)
    return sendHtml(
      res,
      400,
      page("Sign-in error", "<h1>Sign-in error</h1><p>The sign-in does not match this browser.</p>"),
    );
  if (req.method === "GET" && action === undefined)
    return sendHtml(res, 200, renderInteraction(directory, interaction));
  if (req.method !== "POST") return sendHtml(res, 405, page("Not allowed", "<h1>Use the sign-in form</h1>"));
  return finishInteraction(provider, directory, interaction, action, req, res);
}
