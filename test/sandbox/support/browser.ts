// A minimal user agent over fetch for the OIDC tests: keeps cookies, follows redirects by hand and stops at the
// application's redirect_uri (nobody listens there), and submits the sandbox's HTML forms like a browser would.

export interface Visit {
  response: Response;
  url: string;
  html: string;
}

export class ScriptedBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly send: typeof fetch,
    /** Navigation stops at URLs starting with this prefix (the application's redirect_uri). */
    private readonly stopAt: string,
  ) {}

  async get(url: string | URL): Promise<Visit> {
    return this.navigate(String(url), { method: "GET" });
  }

  /** Submits a form the way a browser does (application/x-www-form-urlencoded), following the redirects. */
  async submit(url: string, fields: Record<string, string>): Promise<Visit> {
    return this.navigate(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  private async navigate(url: string, init: RequestInit): Promise<Visit> {
    let current = url;
    let request = init;
    for (let hop = 0; hop < 10; hop++) {
      const response = await this.send(current, {
        ...request,
        redirect: "manual",
        headers: { ...(request.headers as Record<string, string>), cookie: this.cookieHeader() },
      });
      this.remember(response);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location)
        return { response, url: current, html: await response.text() };
      current = new URL(location, current).href;
      if (current.startsWith(this.stopAt)) return { response, url: current, html: "" };
      request = { method: "GET" };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...value] = pair!.trim().split("=");
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]!) < Date.now()),
      );
      if (expired) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join("="));
    }
  }
}

/** The action of the first `<form>` whose markup contains `marker` (e.g. `value="email"`). */
export function formAction(html: string, base: string, marker: string): string {
  const form = html.split("<form").find((chunk) => chunk.includes(marker));
  const action = form && /action="([^"]+)"/.exec(form)?.[1];
  if (!action) throw new Error(`no form with ${marker} in:\n${html}`);
  return new URL(action.replaceAll("&amp;", "&"), base).href;
}

/** The hidden inputs of the first `<form>` whose markup contains `marker`. */
export function hiddenFields(html: string, marker: string): Record<string, string> {
  const form = html.split("<form").find((chunk) => chunk.includes(marker)) ?? "";
  const fields: Record<string, string> = {};
  for (const input of form.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1];
    if (name !== undefined) fields[name] = value ?? "";
  }
  return fields;
}
