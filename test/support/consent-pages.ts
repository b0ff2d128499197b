// Consent pages of common providers, reduced to their forms (markup as they ship it, values shortened), for the
// sign-in drivers' tests: the form driver's (sign-in.test.ts) and the browser driver's (sign-in-browser.test.ts).
// Ory Hydra's reference consent app: one checkbox per requested scope (grant_scope), "remember", allow and deny.
export const HYDRA_CONSENT = `<form action="/consent" method="POST">
  <input type="hidden" name="challenge" value="c1"><input type="hidden" name="_csrf" value="x1">
  <input type="checkbox" id="openid" value="openid" name="grant_scope"><label for="openid">openid</label><br>
  <input type="checkbox" id="email" value="email" name="grant_scope"><label for="email">email</label><br>
  <input type="checkbox" id="profile" value="profile" name="grant_scope"><label for="profile">profile</label><br>
  <input type="checkbox" id="remember" name="remember" value="1"><label for="remember">Do not ask me again</label>
  <input type="submit" id="accept" name="submit" value="Allow access"><input type="submit" id="reject" name="submit" value="Deny access">
</form>`;
// Google's granular consent: a box per scope (labelled by what it grants, valued by the scope URL), "Select all".
export const GOOGLE_GRANULAR = `<form method="post" action="/signin/oauth/consent/approve">
  <input type="checkbox" name="selectAll" aria-label="Select all">
  <input type="checkbox" name="scopes" value="https://www.googleapis.com/auth/userinfo.email" aria-label="See your primary Google Account email address">
  <input type="checkbox" name="scopes" value="https://www.googleapis.com/auth/userinfo.profile" aria-label="See your personal info">
  <button type="submit" name="action" value="cancel">Cancel</button><button type="submit" name="action" value="continue">Continue</button>
</form>`;
// GitHub's authorize page: one form, Cancel and Authorize as the same field with values 0 and 1.
export const GITHUB_AUTHORIZE = `<form action="/login/oauth/authorize" accept-charset="UTF-8" method="post">
  <input type="hidden" name="authenticity_token" value="t1"><input type="hidden" name="client_id" value="demo-app">
  <button name="authorize" value="0" type="submit" class="btn">Cancel</button>
  <button name="authorize" value="1" type="submit" class="btn btn-primary" id="js-oauth-authorize-btn">Authorize demo-app</button>
</form>`;
// Okta's consent: "Allow Access" and "Don't Allow".
export const OKTA_CONSENT = `<form method="POST" action="/oauth2/v1/consent"><input type="hidden" name="stateToken" value="s1">
  <input class="button" type="submit" value="Don't Allow" name="cancel"><input class="button button-primary" type="submit" value="Allow Access" name="consent"></form>`;
// Auth0's consent: accept and decline as values of one action field.
export const AUTH0_CONSENT = `<form method="POST"><input type="hidden" name="state" value="s2">
  <button type="submit" name="action" value="deny">Decline</button><button type="submit" name="action" value="accept">Accept</button></form>`;
// A consent page built with ARIA switches (as Material and other component kits render them): one role=checkbox per
// scope, toggled by the page's script, which posts the switched-on scopes.
export const ARIA_SWITCHES = `<form method="post" action="/consent" id="consent"><input type="hidden" name="scope" id="granted" value=""></form>
<div role="checkbox" aria-checked="false" tabindex="0" data-scope="openid" aria-label="Sign you in (openid)">openid</div>
<div role="checkbox" aria-checked="false" tabindex="0" data-scope="email" aria-label="Read your e-mail address">E-mail</div>
<div role="checkbox" aria-checked="false" tabindex="0" data-scope="newsletter" aria-label="Send you news">News</div>
<button type="submit" form="consent" name="decision" value="deny">Don't allow</button>
<button type="submit" form="consent" name="decision" value="allow">Allow</button>
<script>
for (const box of document.querySelectorAll("[role=checkbox]"))
  box.addEventListener("click", () => box.setAttribute("aria-checked", box.getAttribute("aria-checked") === "true" ? "false" : "true"));
document.getElementById("consent").addEventListener("submit", () => {
  document.getElementById("granted").value = [...document.querySelectorAll('[role=checkbox][aria-checked="true"]')]
    .map((box) => box.dataset.scope).join(" ");
});
</script>`;
