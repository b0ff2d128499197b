// The manual driver (--manual): prints each URL the checks need opened, a person opens it in their browser, signs in
// (or confirms) as they would, and pastes back the address the browser was sent to. Their browser keeps the session,
// so prompt=none, prompt=login, max_age and logout behave as for any user.
import { createInterface, type Interface } from "node:readline";
import type { DriverSession, NavigateOptions, SignInDriver } from "./driver.js";
import type { Navigation } from "../model/identity-facts.js";

export class ManualDriver implements SignInDriver {
  readonly name = "manual" as const;
  private readonly lines: AsyncIterator<string>;
  private readonly reader: Interface;
  private fresh = false;
  /** The person's windows (the first, then a new private one at each reset) that were sent to the provider. */
  private readonly sessions: DriverSession[] = [];
  current: DriverSession = {};

  constructor(
    input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
  ) {
    this.reader = createInterface({ input, terminal: false });
    this.lines = this.reader[Symbol.asyncIterator]();
  }

  async navigate(url: string, options: NavigateOptions): Promise<Navigation> {
    // Fail closed: a pasted address cannot say how a form posted from somewhere else was answered.
    if (options.form !== undefined)
      return { failure: "--manual opens addresses in a person's browser: it cannot send a form by POST", pages: 0 };
    if (!this.sessions.includes(this.current)) this.sessions.push(this.current);
    return this.ask(url, options);
  }

  private async ask(url: string, options: NavigateOptions): Promise<Navigation> {
    const window = this.fresh ? "in a NEW private window (no session), " : "";
    this.fresh = false;
    this.output.write(
      `\n[manual] ${options.purpose}: open ${window}this URL${options.interactive === false ? " (it should not ask you anything)" : " and sign in or confirm as a user would"}:\n  ${url}\n[manual] then paste the address your browser was sent to (or an empty line if it stayed on a page of the provider):\n> `,
    );
    const line = await this.lines.next();
    const text = line.done ? "" : line.value.trim();
    if (!text)
      return {
        failure: line.done
          ? "no address was pasted (standard input ended)"
          : "the person reported that the browser stayed on a page of the provider",
        pages: 1,
      };
    let arrived: URL;
    try {
      arrived = new URL(text);
    } catch {
      return { failure: `the pasted text is not a URL: ${text.slice(0, 80)}`, pages: 1 };
    }
    if (!options.until(arrived))
      return {
        failure: `the browser was sent to ${arrived.origin}${arrived.pathname}, not where the check waits`,
        pages: 1,
      };
    return { arrived, pages: options.interactive === false ? 0 : 1 };
  }

  reset(): Promise<void> {
    this.fresh = true;
    this.current = {};
    return Promise.resolve();
  }

  /** Whatever the person's windows still hold is not the runner's to see: each one it sent to the provider. */
  sessionsToEnd(): Promise<DriverSession[]> {
    return Promise.resolve([...this.sessions]);
  }

  /** The person is asked to open the URL in the window of that session (its purpose says which). */
  navigateIn(_session: DriverSession, url: string, options: NavigateOptions): Promise<Navigation> {
    return this.ask(url, options);
  }

  close(): Promise<void> {
    this.reader.close();
    return Promise.resolve();
  }
}
