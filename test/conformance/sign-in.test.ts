// What the sign-in drivers do on a page, on the markup of real providers: which field takes which --sign-in value,
// and which single button is pressed.
import { describe, expect, it } from "vitest";
import { buttonScore, grantsRequestedScope, matchField } from "../../conformance/sign-in/choices.js";
import { chooseSubmission, parseForms } from "../../conformance/sign-in/form.js";
import {
  AUTH0_CONSENT,
  GITHUB_AUTHORIZE,
  GOOGLE_GRANULAR,
  HYDRA_CONSENT,
  OKTA_CONSENT,
} from "../support/consent-pages.js";

// Keycloak's consent page (login-oauth-grant.ftl): one form, accept and cancel as named submit inputs.
const KEYCLOAK_CONSENT = `<form class="form-actions" action="/realms/demo/login-actions/consent?session_code=abc&amp;execution=x&amp;client_id=demo-app&amp;tab_id=t" method="POST">
  <input type="hidden" name="code" value="abc">
  <input class="btn btn-primary" name="accept" id="kc-login" type="submit" value="Yes"/>
  <input class="btn btn-default" name="cancel" id="kc-cancel" type="submit" value="No"/>
</form>`;

// Keycloak's sign-in page (login.ftl), reduced to its form: fields named username and password.
const KEYCLOAK_LOGIN = `<form id="kc-form-login" action="/realms/demo/login-actions/authenticate?session_code=abc" method="post">
  <label for="username">Username or email</label><input tabindex="1" id="username" name="username" type="text" autofocus autocomplete="off">
  <label for="password">Password</label><input tabindex="2" id="password" name="password" type="password" autocomplete="off">
  <input type="checkbox" id="rememberMe" name="rememberMe"> Remember me
  <input type="hidden" id="id-hidden-input" name="credentialId">
  <input tabindex="4" name="login" id="kc-login" type="submit" value="Sign In"/>
</form>`;

describe("the HTML form driver", () => {
  it("presses only accept on a Keycloak-style consent page", () => {
    const submission = chooseSubmission(parseForms(KEYCLOAK_CONSENT), {})!;
    expect(submission.method).toBe("post");
    expect(submission.action).toContain("login-actions/consent?session_code=abc&execution=x");
    expect([...submission.body.keys()]).toEqual(["code", "accept"]);
    expect(submission.body.get("accept")).toBe("Yes");
  });

  it("fills login/password into a sign-in form whose fields are named otherwise, and leaves unchecked boxes out", () => {
    const submission = chooseSubmission(parseForms(KEYCLOAK_LOGIN), { login: "alice", password: "s3cret" })!;
    expect(Object.fromEntries(submission.body)).toEqual({
      username: "alice",
      password: "s3cret",
      credentialId: "",
      login: "Sign In",
    });
    expect(submission.filled.sort()).toEqual(["login", "password"]);
  });

  it("puts the login only into a non-password field and the password only into a password field, whatever the ids say", () => {
    // Ant Design's "normal_login" form: the password input's id and placeholder contain "login".
    const html = `<form id="normal_login" method="post" action="/login"><input id="normal_login_username" name="username" placeholder="Username"><input id="normal_login_password" name="secret" type="password" placeholder="Login password"><button type="submit">Log in</button></form>`;
    const submission = chooseSubmission(parseForms(html), { login: "alice", password: "s3cret" })!;
    expect(Object.fromEntries(submission.body)).toEqual({ username: "alice", secret: "s3cret" });
    expect(submission.assignment).toBe("login → input#normal_login_username, password → input#normal_login_password");
    // A field named after the other key is passed over for the one its type allows.
    const swapped = [
      { tag: "input", type: "password", name: "login" },
      { tag: "input", type: "text", name: "password" },
    ];
    expect(matchField("login", swapped)).toBe(1);
    expect(matchField("password", swapped)).toBe(0);
    expect(matchField("email", [{ tag: "input", type: "password", id: "email_password" }])).toBe(-1);
  });

  it("counts a button outside the form through its form attribute (oidc-provider's logout confirmation)", () => {
    const html = `<form method="post" action="/session/end/confirm" id="op.logoutForm"><input type="hidden" name="xsrf" value="x1"/></form>
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button>`;
    const submission = chooseSubmission(parseForms(html), {})!;
    expect(Object.fromEntries(submission.body)).toEqual({ xsrf: "x1", logout: "yes" });
  });
});

describe("consent pages shaped like the common providers' (HTML form driver)", () => {
  const scopes = ["openid", "profile", "email"];
  it("Ory Hydra: ticks the box of each requested scope, leaves 'do not ask me again' alone, presses Allow access", () => {
    const submission = chooseSubmission(parseForms(HYDRA_CONSENT), {}, scopes)!;
    expect(submission.body.getAll("grant_scope")).toEqual(["openid", "email", "profile"]);
    expect(submission.body.has("remember")).toBe(false);
    expect(submission.body.getAll("submit")).toEqual(["Allow access"]);
  });

  it("ticks only the requested scopes' boxes", () => {
    const submission = chooseSubmission(parseForms(HYDRA_CONSENT), {}, ["openid"])!;
    expect(submission.body.getAll("grant_scope")).toEqual(["openid"]);
  });

  it("Google's granular consent: the e-mail and profile boxes, not 'Select all', then Continue", () => {
    const submission = chooseSubmission(parseForms(GOOGLE_GRANULAR), {}, scopes)!;
    expect(submission.body.getAll("scopes")).toEqual([
      "https://www.googleapis.com/auth/userinfo.email",
      "https://www.googleapis.com/auth/userinfo.profile",
    ]);
    expect(submission.body.has("selectAll")).toBe(false);
    expect(submission.body.getAll("action")).toEqual(["continue"]);
  });

  it.each([
    ["GitHub", GITHUB_AUTHORIZE, "authorize", "1"],
    ["Okta", OKTA_CONSENT, "consent", "Allow Access"],
    ["Auth0", AUTH0_CONSENT, "action", "accept"],
  ])("%s: presses the button that grants, never the one that denies", (_provider, html, name, value) => {
    const submission = chooseSubmission(parseForms(html), {}, scopes)!;
    const pressed = [...submission.body].filter(
      ([key]) => !["authenticity_token", "client_id", "stateToken", "state"].includes(key),
    );
    expect(pressed).toEqual([[name, value]]);
  });

  it("a checkbox grants a scope when its value, name, id or label names it as a word", () => {
    const box = (extra: Record<string, string>) => ({ tag: "input", type: "checkbox", ...extra });
    expect(grantsRequestedScope(box({ value: "email" }), ["email"])).toBe(true);
    expect(grantsRequestedScope(box({ name: "scope_offline_access" }), ["offline_access"])).toBe(true);
    expect(grantsRequestedScope(box({ label: "Your e-mail address" }), ["email"])).toBe(true);
    expect(grantsRequestedScope(box({ name: "remember", label: "Remember my e-mail" }), ["openid"])).toBe(false);
    expect(grantsRequestedScope(box({ value: "emails" }), ["email"])).toBe(false);
    expect(grantsRequestedScope({ tag: "input", type: "text", name: "email" }, ["email"])).toBe(false);
  });
});

describe("field and button choices shared by the drivers", () => {
  const field = (extra: Record<string, string>) => ({ tag: "input", type: "text", ...extra });
  it("finds the field a key names by name, id, label, placeholder or autocomplete token", () => {
    expect(matchField("login", [field({ name: "q" }), field({ name: "login" })])).toBe(1);
    expect(matchField("login", [field({ id: "search" }), field({ autocomplete: "username" })])).toBe(1);
    expect(matchField("username", [field({ type: "hidden", name: "username" }), field({ label: "Username" })])).toBe(1);
    expect(matchField("password", [field({ placeholder: "Search" }), field({ type: "password", id: "pw" })])).toBe(1);
    expect(matchField("otp", [field({ placeholder: "Enter the OTP from your app" })])).toBe(0);
    expect(matchField("password", [field({ name: "login" })])).toBe(-1);
  });

  it("prefers the button that goes on and never one that holds back", () => {
    for (const go of ["Sign in", "accept Yes", "Allow", "Continue with e-mail", "Sign out", "logout yes"])
      expect(buttonScore(go), go).toBeGreaterThan(0);
    for (const stop of [
      "cancel No",
      "Deny",
      "Stay signed in",
      "Forgot password?",
      "Create account",
      "Don't Allow",
      "Do not allow",
    ])
      expect(buttonScore(stop), stop).toBeLessThan(0);
  });
});
