import type { Navigation } from "../model/identity-facts.js";
// How the identity checks get through the provider's pages (sign-in, consent, logout confirmation): a driver
// opens a URL in its browser and goes on like a person would until the provider sends it to one of the addresses
// the checks wait for (the redirect_uri, a post_logout_redirect_uri). Chosen per run:
//   form     (default) plain HTTP with a cookie jar, submitting the HTML forms of the pages;
//   browser  (--browser) headless Chromium through playwright-core, JavaScript included;
//   manual   (--manual) a person opens the URL and pastes back the address the browser was sent to.

export type SignInDriverName = "form" | "browser" | "manual";

export interface IdentityRunOptions {
  driver: SignInDriverName;
  /**
   * --sign-in-script: a module whose default export `async (page, fields) => {}` gets through the pages (--browser).
   */
  signInScript?: string;
  /** --post-logout-redirect-uri: registered for the client; needed by the RP-initiated logout checks. */
  postLogoutRedirectUri?: string;
  /** Chromium's executable for --browser (default: the first lib/chromium.ts finds, Debian's headless shell first). */
  chromiumPath?: string;
}

export interface NavigateOptions {
  /** Whether an address is one the checks wait for; the driver stops there without loading it. */
  until: (url: URL) => boolean;
  /** false: stop at the first page that would need a person (prompt=none must not show one). */
  interactive?: boolean;
  /** What the navigation is for, for the person in --manual mode. */
  purpose: string;
  /**
   * A form (application/x-www-form-urlencoded) to POST to the URL instead of opening it, as a page's form does: an
   * authorization request by POST (OpenID Connect Core §3.1.2.1).
   */
  form?: string;
}

/**
 * One session of the driver's browser at the provider: its own cookies (a cookie jar, a browser context), which is
 * how the provider knows it. The run ends each one at its end (identity/cleanup.ts).
 */
export interface DriverSession {
  /** The latest id_token issued to a sign-in in it, the id_token_hint of the logout that ends it. */
  idToken?: string;
}

export interface SignInDriver {
  readonly name: SignInDriverName;
  /** Goes to `url` in the current session. */
  navigate(url: string, options: NavigateOptions): Promise<Navigation>;
  /**
   * Leaves the browser session (cookies) for a new one, like a fresh private window. The one it leaves stays as it
   * is, still signed in at the provider maybe: the run ends it at its end (sessionsToEnd).
   */
  reset(): Promise<void>;
  /** The session navigations go in now. */
  readonly current: DriverSession;
  /**
   * The sessions the provider may still keep, each of them: those holding a cookie of it (a logout that ended a
   * session expires its cookie), in the order they were opened.
   */
  sessionsToEnd(): Promise<DriverSession[]>;
  /** `navigate`, in the cookies of `session` (one of this driver's). */
  navigateIn(session: DriverSession, url: string, options: NavigateOptions): Promise<Navigation>;
  close(): Promise<void>;
}

/** Text of an HTML page without tags, scripts and styles, shortened for a message. */
export function pageText(html: string, max = 200): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
