// The browser driver (--browser): headless Chromium through playwright-core drives the provider's real pages,
// JavaScript included. On each page it fills the --sign-in values into the fields they name (by name, id, label,
// placeholder or autocomplete token) and presses the button a person would press (page-actions.ts);
// --sign-in-script hands the page to the user's own function first (MFA, test-mode captchas, several steps).
// Navigations to the addresses the checks wait for are noted as the browser starts them, so nothing needs to listen
// at the redirect_uri.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../../lib/chromium.js";
import { UsageError } from "../../lib/cli.js";
import { requestedScopes } from "./choices.js";
import { type DriverSession, type NavigateOptions, pageText, type SignInDriver } from "./driver.js";
import { type Navigation } from "../model/identity-facts.js";
import { fill, press, SETTLE_MS, tickRequestedScopes } from "./page-actions.js";

export type SignInScript = (page: Page, fields: Record<string, string>) => Promise<void>;

/** Where one navigation has got to, page after page. */
interface Walk {
  /** Navigations of the main frame so far. */
  navigations: number;
  /** Pages acted on (sign-in, consent, confirmation). */
  pages: number;
  /** The scopes the authorization request asked for, ticked on a consent page. */
  scopes: string[];
  scriptRan: boolean;
  /** The --sign-in values were filled on an earlier page: a password form again means they were refused. */
  filledBefore: boolean;
  /** Which field took which key on the last page filled (names only), for the message of a refused sign-in. */
  assignment: string;
  /** The last error of a page that went away under the driver. */
  lastError: string;
  /** A password input took a --sign-in value and its page went on (or the --sign-in-script got a password page). */
  passwordSubmitted: boolean;
}

type LastPage = NonNullable<Navigation["lastPage"]>;

/** A browser context: the session of the driver's browser at the provider, with its one tab. */
interface BrowserSession extends DriverSession {
  context: BrowserContext;
  page?: Page;
}

const firstLine = (error: unknown) => (error as Error).message.split("\n")[0]!;

/** The page the browser is on, for messages (without its query, which may carry codes). */
async function lastPageOf(page: Page): Promise<LastPage> {
  const current = new URL(page.url());
  return { url: `${current.origin}${current.pathname}`, text: pageText(await page.content().catch(() => "")) };
}

/** Resolves when `done()` holds or after `timeoutMs`, whichever comes first. */
async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

const attributeValue = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * Posts `form` to `url` as a page's own form does (a top-level navigation by POST, the way the OpenID Foundation's
 * browser sends oidcc-ensure-post-request-succeeds): a form of hidden inputs on a blank page, submitted.
 */
async function postForm(page: Page, url: string, form: string) {
  const inputs = [...new URLSearchParams(form)]
    .map(([name, value]) => `<input type="hidden" name="${attributeValue(name)}" value="${attributeValue(value)}">`)
    .join("");
  await page.setContent(`<form method="post" action="${attributeValue(url)}">${inputs}</form>`);
  const [response] = await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.locator("form").evaluate((element) => (element as HTMLFormElement).submit()),
  ]);
  return response;
}

export async function loadSignInScript(file: string): Promise<SignInScript> {
  const module = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown };
  if (typeof module.default !== "function")
    throw new UsageError(`--sign-in-script ${file} must export a default async function (page, fields) => {}`);
  return module.default as SignInScript;
}

export class BrowserDriver implements SignInDriver {
  readonly name = "browser" as const;
  private readonly sessions: BrowserSession[] = [];
  current!: BrowserSession;
  private until: ((url: URL) => boolean) | undefined;
  private arrived: URL | undefined;

  private constructor(
    private readonly browser: Browser,
    private readonly signIn: Record<string, string>,
    private readonly script: SignInScript | undefined,
    private readonly timeoutMs: number,
  ) {}

  static async open(options: {
    signIn: Record<string, string>;
    script?: string;
    chromiumPath?: string;
    timeoutMs: number;
  }): Promise<BrowserDriver> {
    let chromium: typeof import("playwright-core").chromium;
    try {
      // Loaded only for --browser, so the CLI works where playwright-core is not installed.
      ({ chromium } = await import("playwright-core"));
    } catch {
      throw new UsageError("--browser needs the playwright-core package: npm install playwright-core");
    }
    const script = options.script ? await loadSignInScript(options.script) : undefined;
    const executablePath = findChromium(options.chromiumPath);
    let browser: Browser;
    try {
      // The run ends its sessions in this browser after Ctrl-C or SIGTERM too (identity/cleanup.ts): the signals are
      // the run's, and it closes the browser when the cleanup is done.
      browser = await chromium.launch({
        ...(executablePath ? { executablePath } : {}),
        args: CHROMIUM_ARGS,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      throw new UsageError(
        `--browser could not start Chromium${executablePath ? ` at ${executablePath}` : ""} (set CONFORM_CHROMIUM to its path): ${(error as Error).message.split("\n")[0]}`,
      );
    }
    const driver = new BrowserDriver(browser, options.signIn, script, options.timeoutMs);
    await driver.newContext();
    return driver;
  }

  private async newContext(): Promise<void> {
    const context = await this.browser.newContext();
    context.setDefaultTimeout(this.timeoutMs);
    // Request events fire for every hop of a redirect chain (a route handler would see only the first URL), in every
    // frame and tab of the context.
    context.on("request", (request) => {
      if (request.isNavigationRequest()) this.noteArrival(new URL(request.url()));
    });
    this.current = { context };
    this.sessions.push(this.current);
  }

  /** Notes `url` as where the browser arrived if it is the address waited for (the first such); whether it is. */
  private noteArrival(url: URL): boolean {
    if (!this.until?.(url)) return false;
    this.arrived ??= url;
    return true;
  }

  /**
   * The one tab of the session, as a person signs in again in the same tab: a new tab for every sign-in would start
   * a new renderer process each time, about a third of the CPU of a --browser run.
   */
  private async tab(): Promise<Page> {
    const session = this.current;
    if (!session.page || session.page.isClosed()) session.page = await this.openTab(session.context);
    return session.page;
  }

  /**
   * A tab that stops its navigations to the address waited for, each hop of a redirect chain included: the browser
   * answers them itself with a 204, and a navigation to a 204 response does not happen (HTML Living Standard,
   * "navigate": "If response's status is 204 or 205, then abort"). So the code in the redirect never reaches
   * whatever listens at the redirect_uri (an app there could redeem it before the checks do), and where nothing
   * listens the browser shows no error page: each error page took a renderer process of its own, and with it half
   * of Chromium's CPU in a run. Through the Chrome DevTools Protocol's Fetch domain, which pauses every hop.
   */
  private async openTab(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    cdp.on("Fetch.requestPaused", ({ requestId, request }) => {
      const answer = this.noteArrival(new URL(request.url))
        ? cdp.send("Fetch.fulfillRequest", { requestId, responseCode: 204 })
        : cdp.send("Fetch.continueRequest", { requestId });
      answer.catch(() => {}); // the tab was closed meanwhile
    });
    await cdp.send("Fetch.enable", {
      patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }],
    });
    return page;
  }

  /**
   * Takes the tab off the provider's page, so that none of its scripts runs on while the checks go on. A navigation
   * the page started late (a script, a frame's error page) can cut the first try short; the next try waits for it. A
   * tab that still cannot get to about:blank is given up, and the next sign-in opens a new one.
   */
  private async leave(page: Page): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (
        await page.goto("about:blank").then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (this.current.page === page) this.current.page = undefined;
    void page.close().catch(() => {});
  }

  /** Where the browser arrived, with what it took to get there. */
  private arrival(walk: Walk): Navigation {
    return { arrived: this.arrived, pages: walk.pages, passwordSubmitted: walk.passwordSubmitted };
  }

  private async settle(page: Page): Promise<void> {
    await page.waitForLoadState("load", { timeout: SETTLE_MS }).catch(() => {});
    await page.waitForLoadState("networkidle", { timeout: SETTLE_MS }).catch(() => {});
  }

  async navigate(url: string, options: NavigateOptions): Promise<Navigation> {
    this.until = options.until;
    this.arrived = undefined;
    const page = await this.tab();
    const walk: Walk = {
      navigations: 0,
      pages: 0,
      scopes: requestedScopes(url, options.form),
      scriptRan: false,
      filledBefore: false,
      assignment: "",
      lastError: "",
      passwordSubmitted: false,
    };
    // A form posted back to its own address (wrong credentials shown again) navigates without changing the URL.
    const counted = (frame: Frame) => {
      if (frame === page.mainFrame()) walk.navigations += 1;
    };
    page.on("framenavigated", counted);
    try {
      const opened =
        options.form === undefined ? page.goto(url, { waitUntil: "load" }) : postForm(page, url, options.form);
      const response = await opened.catch((error: Error) => error);
      if (response instanceof Error && !this.arrived)
        return { failure: `the browser could not open the page: ${firstLine(response)}`, pages: walk.pages };
      const walked = await this.walk(page, walk, options);
      // Where the browser stopped on a page, a picture of it: a refusal's evidence, as the OpenID Foundation suite's.
      if (walked.arrived || !walked.lastPage) return walked;
      // Stopped on the page the request opened: its status is the response's (a refusal's 405 or 404).
      const first = response instanceof Error ? null : response;
      const firstUrl = first ? new URL(first.url()) : undefined;
      const found: Navigation =
        first && firstUrl && `${firstUrl.origin}${firstUrl.pathname}` === walked.lastPage.url
          ? { ...walked, lastPage: { status: first.status(), ...walked.lastPage } }
          : walked;
      const screenshot = await page.screenshot({ type: "png" }).catch(() => undefined);
      return screenshot && found.lastPage
        ? { ...found, lastPage: { ...found.lastPage, screenshot: screenshot.toString("base64") } }
        : found;
    } finally {
      this.until = undefined;
      page.off("framenavigated", counted);
      await this.leave(page);
    }
  }

  /** Goes on from page to page until the browser arrives, a page stops it, or 12 pages went by. */
  private async walk(page: Page, walk: Walk, options: NavigateOptions): Promise<Navigation> {
    for (let step = 0; step < 12; step++) {
      // Arrived already (a redirect straight to the address waited for): nothing on the page to wait for.
      if (!this.arrived) await this.settle(page);
      if (this.arrived) return this.arrival(walk);
      const lastPage = await lastPageOf(page);
      if (options.interactive === false)
        return {
          failure: `the provider showed a page instead of redirecting: "${lastPage.text}"`,
          pages: walk.pages,
          lastPage,
        };
      const before = { url: page.url(), navigations: walk.navigations };
      let stopped: Navigation | undefined;
      try {
        stopped = await this.actOn(page, walk, lastPage);
      } catch (error) {
        // The page went away under the driver (a navigation started late): look again at wherever it is now.
        if (this.arrived) return this.arrival(walk);
        walk.lastError = firstLine(error);
        continue;
      }
      if (stopped) return stopped;
      // A sign-in may post with fetch first and navigate only when the answer is in.
      await waitUntil(
        () => !!this.arrived || walk.navigations > before.navigations || page.url() !== before.url,
        SETTLE_MS,
      );
    }
    if (this.arrived) return this.arrival(walk);
    const last = walk.lastError ? ` (last: ${walk.lastError})` : "";
    return {
      failure: `got through more than 12 pages without arriving${last}`,
      pages: walk.pages,
      lastPage: await lastPageOf(page),
    };
  }

  /**
   * Acts on one page: the --sign-in-script gets the first page that asks for input (error and confirmation pages are
   * the driver's), the driver fills and presses on the others. A Navigation when the walk stops on this page.
   */
  private async actOn(page: Page, walk: Walk, lastPage: LastPage): Promise<Navigation | undefined> {
    const asksForInput = async () =>
      (await page.locator("input:not([type=hidden]):visible, select:visible, textarea:visible").count()) > 0;
    if (this.script && !walk.scriptRan && (await asksForInput()))
      return this.runScript(this.script, page, walk, lastPage);
    return this.fillAndPress(page, walk, lastPage);
  }

  private async runScript(
    script: SignInScript,
    page: Page,
    walk: Walk,
    lastPage: LastPage,
  ): Promise<Navigation | undefined> {
    walk.scriptRan = true;
    walk.pages += 1;
    // The script is the user's own sign-in: given a page with a password input, it is taken to have answered it.
    walk.passwordSubmitted ||=
      (await page
        .locator("input[type=password]:visible")
        .count()
        .catch(() => 0)) > 0;
    try {
      await script(page, { ...this.signIn });
      return undefined;
    } catch (error) {
      if (this.arrived) return this.arrival(walk);
      const failure = `the --sign-in-script failed on ${lastPage.url}: ${firstLine(error)}`;
      return { failure, pages: walk.pages, lastPage };
    }
  }

  /** Fills the --sign-in values, ticks the requested scopes and presses on; stops where a person could not go on. */
  private async fillAndPress(page: Page, walk: Walk, lastPage: LastPage): Promise<Navigation | undefined> {
    const asksForPassword = async () => (await page.locator("input[type=password]").count()) > 0;
    const { filled, assignment, password } = await fill(page, this.signIn);
    await tickRequestedScopes(page, walk.scopes);
    if (walk.filledBefore && filled > 0 && (await asksForPassword()))
      return {
        failure: `the provider did not accept the sign-in with the --sign-in values (wrong credentials?; filled ${walk.assignment}): it showed its sign-in form again, saying "${lastPage.text}"`,
        pages: walk.pages,
        lastPage,
      };
    if (!(await press(page))) {
      const missing = filled === 0 && Object.keys(this.signIn).length === 0 && (await asksForPassword());
      const failure = missing
        ? `the sign-in page at ${lastPage.url} asks for a password and no --sign-in values were given`
        : `stopped at ${lastPage.url} on a page without a button to press: "${lastPage.text}"`;
      return { failure, pages: walk.pages, lastPage };
    }
    walk.pages += 1;
    walk.filledBefore ||= filled > 0;
    walk.passwordSubmitted ||= password;
    if (filled > 0) walk.assignment = assignment;
    return undefined;
  }

  async reset(): Promise<void> {
    // The tab goes (a renderer process each); the context, with its cookies, stays until the run has ended its session.
    await this.current.page?.close().catch(() => {});
    this.current.page = undefined;
    await this.newContext();
  }

  async sessionsToEnd(): Promise<DriverSession[]> {
    const holding = await Promise.all(
      this.sessions.map(async (session) => (await session.context.cookies().catch(() => [])).length > 0),
    );
    return this.sessions.filter((_session, index) => holding[index]);
  }

  async navigateIn(session: DriverSession, url: string, options: NavigateOptions): Promise<Navigation> {
    const current = this.current;
    this.current = session as BrowserSession;
    try {
      return await this.navigate(url, options);
    } finally {
      await this.current.page?.close().catch(() => {});
      this.current.page = undefined;
      this.current = current;
    }
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
  }
}
