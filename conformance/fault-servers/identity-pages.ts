// The fault provider's own pages (identity.ts): sign-in, consent and error pages. They are the provider's, not the
// contract's: a relying party only ever reaches them through the authorization endpoint.
import type { IncomingMessage } from "node:http";
import type { Reply } from "./http.js";

/** Variants of the correct provider that change only how the user gets through its pages. */
export type IdentityVariant =
  "html-form" | "javascript-sign-in" | "consent-page" | "scope-consent" | "login-in-password-id";

export const html = (status: number, title: string, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  text: `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>\n`,
  headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
});
export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An error page with its heading and one paragraph. */
export const errorPage = (title: string, message: string, status = 400) =>
  html(status, title, `<h1>${title}</h1><p>${message}</p>`);

export const cookieOf = (request: IncomingMessage, name: string) =>
  (request.headers.cookie ?? "")
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([key]) => key === name)?.[1];

export async function readText(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

/** No form in the HTML: the script builds the fields and posts them with fetch, as single-page sign-ins do. */
function javascriptSignInPage(id: string): Reply {
  return html(
    200,
    "Sign in to demo-app",
    `<div id="app"><noscript>This sign-in needs JavaScript.</noscript></div>
<script>
const app = document.getElementById("app");
app.innerHTML = '<h1>Sign in to demo-app</h1><p id="problem" role="alert"></p>' +
  '<div><label for="user">Username</label> <input id="user" autocomplete="username"></div>' +
  '<div><input id="secret" type="password" placeholder="Password"></div>' +
  '<div><button id="go" type="button">Continue</button> <button type="button" id="forgot">Forgot password?</button></div>';
document.getElementById("go").addEventListener("click", async () => {
  const response = await fetch("/sign-in", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ request: ${JSON.stringify(id)}, login: document.getElementById("user").value, password: document.getElementById("secret").value }) });
  const answer = await response.json();
  if (answer.location) window.location.href = answer.location;
  else document.getElementById("problem").textContent = answer.problem;
});
</script>`,
  );
}

/**
 * A sign-in page shaped like Ant Design's "normal_login" form: the password input's id and placeholder say "login"
 * (`normal_login_password`, "Login password") and neither field is named login or password, so only the fields'
 * types tell a driver where `login=` and `password=` go. Its fields are username and secret (the server reads them).
 */
function loginInPasswordIdPage(id: string, problem: string): Reply {
  return html(
    problem ? 401 : 200,
    "Log in to demo-app",
    `<h1>Log in to demo-app</h1>${problem ? `<p role="alert">${escape(problem)}</p>` : ""}<form id="normal_login" method="post" action="/sign-in"><input type="hidden" name="request" value="${id}"><input id="normal_login_username" name="username" placeholder="Username"><input id="normal_login_password" name="secret" type="password" placeholder="Login password"><button type="submit">Log in</button></form>`,
  );
}

export function signInPage(variant: IdentityVariant, id: string, problem = ""): Reply {
  if (variant === "javascript-sign-in") return javascriptSignInPage(id);
  if (variant === "login-in-password-id") return loginInPasswordIdPage(id, problem);
  return html(
    problem ? 401 : 200,
    "Sign in to demo-app",
    `<h1>Sign in to demo-app</h1>${problem ? `<p role="alert">${escape(problem)}</p>` : ""}<form method="post" action="/sign-in"><input type="hidden" name="request" value="${id}"><label>Login <input name="login" autocomplete="username"></label><label>Password <input type="password" name="password"></label><button type="submit">Continue with e-mail</button></form><form method="post" action="/sign-in/cancel"><input type="hidden" name="request" value="${id}"><button type="submit">Cancel</button></form>`,
  );
}

/** A "continue as" page: one click signs the user in again, without asking for the credentials. */
export const continueAsPage = (id: string, login: string): Reply =>
  html(
    200,
    "Welcome back",
    `<h1>Welcome back</h1><form method="post" action="/continue"><input type="hidden" name="request" value="${id}"><button type="submit">Continue with ${escape(login)}</button></form>`,
  );

/** Keycloak's consent page: one form, the accept and the cancel button side by side; cancel wins when both are sent. */
export function consentPage(id: string, scope: string[], headers: Record<string, string>): Reply {
  return html(
    200,
    "Grant access to demo-app",
    `<h1>Grant access to demo-app</h1><p>demo-app asks for: ${scope.map((s) => `<code>${s}</code>`).join(" ")}</p><form method="post" action="/consent"><input type="hidden" name="code" value="${id}"><input type="submit" name="cancel" value="No"> <input type="submit" name="accept" value="Yes"></form>`,
    headers,
  );
}

const SCOPE_WORDS: Record<string, string> = {
  openid: "Know who you are (openid)",
  profile: "Your name, username and picture",
  email: "Your e-mail address",
  wallets: "Your linked wallets",
  offline_access: "Stay signed in (offline access)",
  quests: "Your quests",
};

/**
 * A consent page shaped like Google's and GitHub's granular consent: one unticked checkbox per requested scope, a
 * "Grant access" button that the page's script enables once a box is ticked, and "Deny" beside it. Only the ticked
 * scopes are granted; without openid the page asks again. Step 1 of 2 (scopeReviewPage follows).
 */
export function scopeConsentPage(id: string, scope: string[], headers: Record<string, string>, problem = ""): Reply {
  const boxes = scope
    .map(
      (s) =>
        `<li><label><input type="checkbox" name="scope" value="${escape(s)}"> ${SCOPE_WORDS[s] ?? escape(s)}</label></li>`,
    )
    .join("");
  return html(
    200,
    "demo-app wants to access your account",
    `<h1>demo-app wants to access your account</h1>${problem ? `<p role="alert">${escape(problem)}</p>` : ""}<p>Select what demo-app can access:</p><form method="post" action="/consent"><input type="hidden" name="code" value="${id}"><input type="hidden" name="step" value="choose"><ul>${boxes}</ul><button type="submit" name="decision" value="deny">Deny</button> <button type="submit" name="decision" value="grant" id="grant">Grant access</button></form>
<script>
const grant = document.getElementById("grant");
const boxes = [...document.querySelectorAll("input[type=checkbox]")];
const update = () => { grant.disabled = !boxes.some((box) => box.checked); };
boxes.forEach((box) => box.addEventListener("change", update));
update();
</script>`,
    headers,
  );
}

/** Step 2 of the granular consent: what was chosen, with "Continue" and "Cancel". */
export function scopeReviewPage(id: string, granted: string[]): Reply {
  return html(
    200,
    "Confirm access for demo-app",
    `<h1>Confirm access for demo-app</h1><p>demo-app will be able to: ${granted.map((s) => SCOPE_WORDS[s] ?? escape(s)).join(", ")}</p><form method="post" action="/consent"><input type="hidden" name="code" value="${id}"><input type="hidden" name="step" value="review"><button type="submit" name="decision" value="cancel">Cancel</button> <button type="submit" name="decision" value="continue">Continue</button></form>`,
  );
}
