// The browser driver (--browser): headless Chromium through playwright-core drives the provider's real pages,
// JavaScript included. On each page it fills the --sign-in values into the fields they name (by name, id, label,
// placeholder or autocomplete token) and presses the button a person would press; --sign-in-script hands the page
// to the user's own function first (MFA, test-mode captchas, several steps). Navigations to the addresses the
// checks wait for are noted as the browser starts them, so nothing needs to listen at the redirect_uri.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../../lib/chromium.js";
import { UsageError } from "../../lib/cli.js";
import { buttonScore, type FieldInfo, grantsRequestedScope, matchField, requestedScopes } from "./choices.js";
import { type Navigation, type NavigateOptions, pageText, type SignInDriver } from "./driver.js";

export type SignInScript = (page: Page, fields: Record<string, string>) => Promise<void>;

const SETTLE_MS = 5000;

/** Resolves when `done()` holds or after `timeoutMs`, whichever comes first. */
async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

export async function loadSignInScript(file: string): Promise<SignInScript> {
  const module = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown };
  if (typeof module.default !== "function")
    throw new UsageError(`--sign-in-script ${file} must export a default async function (page, fields) => {}`);
  return module.default as SignInScript;
}

export class BrowserDriver implements SignInDriver {
  readonly name = "browser" as const;
  private context!: BrowserContext;
  private page: Page | undefined;
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
      browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS });
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
    this.context = await this.browser.newContext();
    this.context.setDefaultTimeout(this.timeoutMs);
    // Request events fire for every hop of a redirect chain (a route handler would see only the first URL), in every
    // frame and tab of the context.
    this.context.on("request", (request) => {
      if (request.isNavigationRequest()) this.noteArrival(new URL(request.url()));
    });
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
    if (!this.page || this.page.isClosed()) this.page = await this.openTab();
    return this.page;
  }

  /**
   * A tab that stops its navigations to the address waited for, each hop of a redirect chain included: the browser
   * answers them itself with a 204, and a navigation to a 204 response does not happen (HTML Living Standard,
   * "navigate": "If response's status is 204 or 205, then abort"). So the code in the redirect never reaches
   * whatever listens at the redirect_uri (an app there could redeem it before the checks do), and where nothing
   * listens the browser shows no error page: each error page took a renderer process of its own, and with it half
   * of Chromium's CPU in a run. Through the Chrome DevTools Protocol's Fetch domain, which pauses every hop.
   */
  private async openTab(): Promise<Page> {
    const page = await this.context.newPage();
    const cdp = await this.context.newCDPSession(page);
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
    this.page = undefined;
    void page.close().catch(() => {});
  }

  private async settle(page: Page): Promise<void> {
    await page.waitForLoadState("load", { timeout: SETTLE_MS }).catch(() => {});
    await page.waitForLoadState("networkidle", { timeout: SETTLE_MS }).catch(() => {});
  }

  // eslint-disable-next-line max-lines-per-function -- over the cap since formatted at 120 columns; to be split
  async navigate(url: string, options: NavigateOptions): Promise<Navigation> {
    this.until = options.until;
    this.arrived = undefined;
    const page = await this.tab();
    // A form posted back to its own address (wrong credentials shown again) navigates without changing the URL.
    let navigations = 0;
    const counted = (frame: Frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    };
    page.on("framenavigated", counted);
    let pages = 0;
    const scopes = requestedScopes(url);
    let scriptRan = false;
    let filledBefore = false;
    /** The page the browser is on, for messages (without its query, which may carry codes). */
    const last = async () => {
      const current = new URL(page.url());
      return { url: `${current.origin}${current.pathname}`, text: pageText(await page.content().catch(() => "")) };
    };
    try {
      const response = await page.goto(url, { waitUntil: "load" }).catch((error: Error) => error);
      if (response instanceof Error && !this.arrived)
        return { failure: `the browser could not open the page: ${response.message.split("\n")[0]}`, pages };
      let lastError = "";
      for (let step = 0; step < 12; step++) {
        // Arrived already (a redirect straight to the address waited for): nothing on the page to wait for.
        if (!this.arrived) await this.settle(page);
        if (this.arrived) return { arrived: this.arrived, pages };
        const lastPage = await last();
        if (options.interactive === false)
          return { failure: `the provider showed a page instead of redirecting: "${lastPage.text}"`, pages, lastPage };
        const before = { url: page.url(), navigations };
        try {
          // The script gets the first page that asks for input; error and confirmation pages are the driver's.
          if (
            this.script &&
            !scriptRan &&
            (await page.locator("input:not([type=hidden]):visible, select:visible, textarea:visible").count()) > 0
          ) {
            scriptRan = true;
            pages += 1;
            try {
              await this.script(page, { ...this.signIn });
            } catch (error) {
              if (this.arrived) return { arrived: this.arrived, pages };
              return {
                failure: `the --sign-in-script failed on ${lastPage.url}: ${(error as Error).message.split("\n")[0]}`,
                pages,
                lastPage,
              };
            }
          } else {
            const filled = await this.fill(page);
            await this.tickRequestedScopes(page, scopes);
            if (filledBefore && filled > 0 && (await page.locator("input[type=password]").count()) > 0) {
              return {
                failure: `the provider did not accept the sign-in with the --sign-in values (wrong credentials?): it showed its sign-in form again, saying "${lastPage.text}"`,
                pages,
                lastPage,
              };
            }
            const pressed = await this.press(page);
            if (!pressed) {
              const missing =
                filled === 0 &&
                Object.keys(this.signIn).length === 0 &&
                (await page.locator("input[type=password]").count()) > 0;
              if (missing)
                return {
                  failure: `the sign-in page at ${lastPage.url} asks for a password and no --sign-in values were given`,
                  pages,
                  lastPage,
                };
              return {
                failure: `stopped at ${lastPage.url} on a page without a button to press: "${lastPage.text}"`,
                pages,
                lastPage,
              };
            }
            pages += 1;
            filledBefore ||= filled > 0;
          }
        } catch (error) {
          // The page went away under the driver (a navigation started late): look again at wherever it is now.
          if (this.arrived) return { arrived: this.arrived, pages };
          lastError = (error as Error).message.split("\n")[0]!;
          continue;
        }
        // A sign-in may post with fetch first and navigate only when the answer is in.
        await waitUntil(
          () => !!this.arrived || navigations > before.navigations || page.url() !== before.url,
          SETTLE_MS,
        );
      }
      if (this.arrived) return { arrived: this.arrived, pages };
      return {
        failure: `got through more than 12 pages without arriving${lastError ? ` (last: ${lastError})` : ""}`,
        pages,
        lastPage: await last(),
      };
    } finally {
      this.until = undefined;
      page.off("framenavigated", counted);
      await this.leave(page);
    }
  }

  /**
   * Fills the --sign-in values into the visible fields they name, in the one form (or the fields outside any form)
   * that takes the most of them, as a person picks one way of signing in on a page that offers several; returns
   * how many were filled.
   */
  private async fill(page: Page): Promise<number> {
    const fields: Array<FieldInfo & { form: number; options?: string[] }> = await page.evaluate(() => {
      const visible = (el: Element) =>
        !!(el as HTMLElement).offsetParent || (el as HTMLElement).getClientRects().length > 0;
      const forms = [...document.forms];
      const found = [...document.querySelectorAll("input, select, textarea")].filter(visible);
      document.querySelectorAll("[data-conform-field]").forEach((el) => el.removeAttribute("data-conform-field"));
      return found.map((el, index) => {
        el.setAttribute("data-conform-index", String(index));
        const input = el as HTMLInputElement;
        const labels = input.labels ? [...input.labels].map((l) => l.textContent ?? "").join(" ") : "";
        return {
          tag: el.tagName.toLowerCase(),
          type: (el.getAttribute("type") ?? (el.tagName === "INPUT" ? "text" : el.tagName.toLowerCase())).toLowerCase(),
          name: input.name || undefined,
          id: el.id || undefined,
          label: (labels || el.getAttribute("aria-label") || "").trim() || undefined,
          placeholder: el.getAttribute("placeholder") ?? undefined,
          autocomplete: el.getAttribute("autocomplete") ?? undefined,
          form: input.form ? forms.indexOf(input.form) : -1,
          ...(el.tagName === "SELECT"
            ? { options: [...(el as HTMLSelectElement).options].flatMap((o) => [o.value, o.text]) }
            : {}),
        };
      });
    });
    // Per form: which field takes which key (a select only takes a value it offers).
    const plans = [...new Set(fields.map((f) => f.form))].map((form) => {
      const taken = new Map<number, string>();
      for (const [key, value] of Object.entries(this.signIn)) {
        const candidates = fields.map((f, i) =>
          f.form !== form || taken.has(i) || (f.options && !f.options.includes(value)) ? { ...f, type: "hidden" } : f,
        );
        const index = matchField(key, candidates);
        if (index >= 0) taken.set(index, key);
      }
      return taken;
    });
    const plan = plans.sort((a, b) => b.size - a.size)[0] ?? new Map<number, string>();
    for (const [index, key] of plan) {
      const target = page.locator(`[data-conform-index="${index}"]`);
      if (fields[index]!.tag === "select") await target.selectOption(this.signIn[key]!, { timeout: SETTLE_MS });
      else await target.fill(this.signIn[key]!, { timeout: SETTLE_MS });
      await target.evaluate((el) => el.setAttribute("data-conform-field", "1"));
    }
    return plan.size;
  }

  /**
   * Ticks the unticked checkboxes (native, or ARIA role=checkbox toggles) that grant a requested scope, as a person
   * grants what the application asked for on a consent page with one box per scope; the others stay as they are.
   */
  private async tickRequestedScopes(page: Page, scopes: string[]): Promise<void> {
    if (scopes.length === 0) return;
    const boxes: Array<FieldInfo & { value?: string }> = await page.evaluate(() => {
      const visible = (el: Element) => el.getClientRects().length > 0 || !!el.closest("label")?.getClientRects().length;
      const found = [
        ...document.querySelectorAll('input[type=checkbox]:not(:checked), [role=checkbox][aria-checked="false"]'),
      ].filter((el) => visible(el) && !(el as HTMLInputElement).disabled);
      return found.map((el, index) => {
        el.setAttribute("data-conform-box", String(index));
        const input = el as HTMLInputElement;
        const labels = input.labels ? [...input.labels].map((l) => l.textContent ?? "").join(" ") : "";
        return {
          tag: el.tagName.toLowerCase(),
          type: "checkbox",
          name: input.name || el.getAttribute("name") || undefined,
          id: el.id || undefined,
          value: input.value ?? el.getAttribute("data-value") ?? undefined,
          label: (labels || el.getAttribute("aria-label") || el.textContent || "").trim() || undefined,
        };
      });
    });
    for (const [index, box] of boxes.entries()) {
      if (!grantsRequestedScope(box, scopes)) continue;
      const target = page.locator(`[data-conform-box="${index}"]`);
      if (box.tag === "input") await target.check({ timeout: SETTLE_MS, force: true });
      else await target.click({ timeout: SETTLE_MS });
    }
  }

  /** Presses the button a person would press: in the form just filled if any, the one that goes on, never cancel. */
  private async press(page: Page): Promise<boolean> {
    const buttons = await page.evaluate(() => {
      const visible = (el: Element) => (el as HTMLElement).getClientRects().length > 0;
      const filledForm = document.querySelector("[data-conform-field]")?.closest("form");
      const found = [
        ...document.querySelectorAll("button, input[type=submit], input[type=image], [role=button]"),
      ].filter(visible);
      return found.map((el, index) => {
        el.setAttribute("data-conform-button", String(index));
        const button = el as HTMLButtonElement;
        const inFilledForm = !!filledForm && (button.form === filledForm || filledForm.contains(el));
        return {
          text: `${button.name ?? ""} ${button.value ?? ""} ${el.textContent ?? ""} ${el.getAttribute("aria-label") ?? ""}`,
          inFilledForm,
          submits: el.tagName !== "BUTTON" || button.type === "submit",
        };
      });
    });
    const ranked = buttons
      .map((b, index) => ({ index, score: buttonScore(b.text) + (b.inFilledForm ? 5 : 0) + (b.submits ? 1 : 0) }))
      .sort((a, b) => b.score - a.score);
    const best = ranked[0];
    if (!best || best.score < 0) {
      // A form without a button is submitted with Enter in its last filled field.
      const field = page.locator("[data-conform-field]").last();
      if ((await field.count()) === 0) return false;
      await field.press("Enter", { timeout: SETTLE_MS });
      return true;
    }
    await page.locator(`[data-conform-button="${best.index}"]`).click({ timeout: SETTLE_MS });
    return true;
  }

  async reset(): Promise<void> {
    await this.context.close();
    this.page = undefined;
    await this.newContext();
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
  }
}
