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
}

export interface SignInDriver {
  readonly name: SignInDriverName;
  navigate(url: string, options: NavigateOptions): Promise<Navigation>;
  /** Forgets the browser session (cookies), like a fresh private window. */
  reset(): Promise<void>;
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
