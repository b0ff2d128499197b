// The HTML form driver: plain HTTP with a cookie jar. It follows redirects and, on each page, submits the form a
// person would use with the --sign-in values in their fields and only the button a person would press (on a
// consent page with accept and cancel buttons, accept). A page that builds its form with JavaScript is reported as
// such: run with --browser.
import type { PreparedRequest } from "../apis.js";
import type { Exchange } from "../model/exchange.js";
import {
  buttonScore,
  describeAssignment,
  type FieldInfo,
  grantsRequestedScope,
  matchField,
  requestedScopes,
} from "./choices.js";
import { type DriverSession, type NavigateOptions, pageText, type SignInDriver } from "./driver.js";
import { type Navigation } from "../model/identity-facts.js";

interface Control extends FieldInfo {
  value: string;
  /** The id of the form a control outside any form belongs to (its form attribute). */
  form?: string;
  /** A button that submits the form. */
  submits: boolean;
  text: string;
  checked: boolean;
}

interface HtmlForm {
  id?: string;
  action: string;
  method: string;
  controls: Control[];
}

const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i")
    .exec(tag)
    ?.slice(2)
    .find((v) => v !== undefined);
const hasAttribute = (tag: string, name: string) => new RegExp(`\\s${name}(\\s|=|>|/)`, "i").test(tag);
const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const strip = (html: string) =>
  decode(html.replace(/<[^>]+>/g, " "))
    .replace(/\s+/g, " ")
    .trim();

/** The page's forms with their controls, buttons outside a form included through their form="id" attribute. */
export function parseForms(html: string): HtmlForm[] {
  const labels = new Map<string, string>();
  for (const [, attrs, inner] of html.matchAll(/<label\b([^>]*)>([\s\S]*?)<\/label>/gi)) {
    const target = attribute(`<label ${attrs}`, "for");
    if (target) labels.set(target, strip(inner!));
  }
  const controlsIn = (fragment: string): Control[] =>
    [
      ...fragment.matchAll(
        /<label\b[^>]*>([\s\S]*?)<\/label>|<(input|select|textarea)\b([^>]*)>(?:([\s\S]*?)<\/\2>)?|<button\b([^>]*)>([\s\S]*?)<\/button>/gi,
      ),
    ].flatMap((match): Control[] => {
      if (match[1] !== undefined)
        return controlsIn(match[1]).map((control) => ({
          ...control,
          label: control.label ?? strip(match[1]!.replace(/<(select|textarea)\b[\s\S]*?<\/\1>/gi, "")),
        }));
      const isButton = match[5] !== undefined;
      const tag = isButton ? "button" : match[2]!.toLowerCase();
      const attrs = `<${tag} ${isButton ? match[5] : match[3]}>`;
      const type = (
        attribute(attrs, "type") ?? (tag === "button" ? "submit" : tag === "input" ? "text" : tag)
      ).toLowerCase();
      const id = attribute(attrs, "id");
      let value = decode(attribute(attrs, "value") ?? "");
      if (tag === "select") {
        const options = [...(match[4] ?? "").matchAll(/<option\b([^>]*)>([^<]*)/gi)];
        const chosen = options.find(([, a]) => hasAttribute(`<option ${a}>`, "selected")) ?? options[0];
        value = chosen ? decode(attribute(`<option ${chosen[1]}>`, "value") ?? chosen[2]!.trim()) : "";
      }
      if (tag === "textarea") value = decode(match[4] ?? "");
      return [
        {
          tag,
          type,
          name: attribute(attrs, "name"),
          id,
          label: id ? labels.get(id) : attribute(attrs, "aria-label"),
          placeholder: attribute(attrs, "placeholder"),
          autocomplete: attribute(attrs, "autocomplete"),
          value,
          submits:
            (tag === "button" && type === "submit") || (tag === "input" && (type === "submit" || type === "image")),
          text: isButton ? strip(match[6]!) : value,
          checked: hasAttribute(attrs, "checked"),
          form: attribute(attrs, "form"),
        },
      ];
    });
  const forms: HtmlForm[] = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].map(([, attrs, inner]) => ({
    id: attribute(`<form ${attrs}`, "id"),
    action: decode(attribute(`<form ${attrs}`, "action") ?? ""),
    method: (attribute(`<form ${attrs}`, "method") ?? "get").toLowerCase(),
    controls: controlsIn(inner!),
  }));
  const outside = html.replace(/<form\b[\s\S]*?<\/form>/gi, "");
  for (const control of controlsIn(outside)) {
    const owner = control.form ? forms.find((form) => form.id === control.form) : undefined;
    owner?.controls.push(control);
  }
  return forms;
}

export interface FilledForm {
  method: string;
  action: string;
  body: URLSearchParams;
  /** The --sign-in keys it fills. */
  filled: string[];
  /** Which field took which key (names only, no values), for the message of a sign-in that fails. */
  assignment: string;
  /** A password input of the form took a --sign-in value. */
  password: boolean;
}

/**
 * The submission a person would make: the form that takes the most --sign-in values and whose button goes on (not
 * cancel), with those values, the checkboxes of the requested `scopes` ticked, its other fields as they are, and only
 * the pressed button's name and value.
 */
export function chooseSubmission(
  forms: HtmlForm[],
  signIn: Record<string, string>,
  scopes: string[] = [],
): FilledForm | undefined {
  const candidates = forms.map((form) => {
    const assigned = new Map<number, string>();
    for (const key of Object.keys(signIn)) {
      // A field takes one value: those already taken are hidden from the next key.
      const index = matchField(
        key,
        form.controls.map((c, i) => (assigned.has(i) ? { ...c, type: "hidden" } : c)),
      );
      if (index >= 0) assigned.set(index, key);
    }
    const buttons = form.controls
      .map((control, index) => ({ control, index }))
      .filter(({ control }) => control.submits);
    const best = buttons
      .map((b) => ({ ...b, score: buttonScore(`${b.control.name ?? ""} ${b.control.value} ${b.control.text}`) }))
      .sort((a, b) => b.score - a.score)[0];
    const typed = form.controls.some(
      (c) => c.tag !== "button" && !["hidden", "submit", "image", "button"].includes(c.type),
    );
    const score = assigned.size * 100 + (best ? best.score : typed ? 0 : -50);
    return { form, assigned, button: best, score };
  });
  const chosen = candidates.sort((a, b) => b.score - a.score)[0];
  if (!chosen || chosen.score < -5) return undefined;
  const body = new URLSearchParams();
  chosen.form.controls.forEach((control, index) => {
    if (control.name === undefined) return;
    if (control.submits) {
      if (index === chosen.button?.index) body.append(control.name, control.value);
      return;
    }
    const ticked = control.checked || grantsRequestedScope(control, scopes);
    if ((control.type === "checkbox" || control.type === "radio") && !ticked) return;
    const key = chosen.assigned.get(index);
    body.append(control.name, key !== undefined ? signIn[key]! : control.value);
  });
  return {
    method: chosen.form.method,
    action: chosen.form.action,
    body,
    filled: [...chosen.assigned.values()],
    assignment: describeAssignment(chosen.assigned, chosen.form.controls),
    password: [...chosen.assigned.keys()].some((index) => chosen.form.controls[index]!.type === "password"),
  };
}

/** A cookie jar: the session of the form driver's browser at the provider. */
interface FormSession extends DriverSession {
  cookies: Map<string, string>;
}

/** Stores the cookies of a response's Set-Cookie headers in `jar`, and drops those it expires. */
export function storeCookies(jar: Map<string, string>, setCookies: string[]): void {
  for (const cookie of setCookies) {
    const [pair, ...attributes] = cookie.split(";");
    const index = pair!.indexOf("=");
    if (index <= 0) continue;
    const name = pair!.slice(0, index).trim();
    const expired = attributes.some(
      (a) =>
        /^\s*max-age\s*=\s*0\s*$/i.test(a) || (/^\s*expires\s*=/i.test(a) && Date.parse(a.split("=")[1]!) < Date.now()),
    );
    if (expired) jar.delete(name);
    else jar.set(name, pair!.slice(index + 1).trim());
  }
}

export class FormDriver implements SignInDriver {
  readonly name = "form" as const;
  private readonly sessions: FormSession[];
  current: FormSession;
  constructor(
    /** Sends a request as it is (the identity step's sender): the pages are not operations of the contract. */
    private readonly sendRequest: (request: PreparedRequest) => Promise<Exchange>,
    private readonly signIn: Record<string, string>,
    /** The Set-Cookie headers of a response the session starts from (a page the run was given outside the driver). */
    setCookies: string[] = [],
  ) {
    this.current = { cookies: new Map() };
    storeCookies(this.current.cookies, setCookies);
    this.sessions = [this.current];
  }

  private async send(url: string, init: { method?: string; body?: string } = {}): Promise<Exchange> {
    const { cookies } = this.current;
    const headers: Record<string, string> = { Accept: "text/html,application/xhtml+xml" };
    if (init.body !== undefined) headers["Content-Type"] = "application/x-www-form-urlencoded";
    if (cookies.size) headers.Cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const exchange = await this.sendRequest({
      method: init.method ?? "GET",
      url,
      headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    storeCookies(cookies, exchange.response?.setCookies ?? []);
    return exchange;
  }

  async navigate(start: string, options: NavigateOptions): Promise<Navigation> {
    let url = new URL(start);
    const scopes = requestedScopes(start, options.form);
    let exchange = await this.send(url.href, options.form === undefined ? {} : { method: "POST", body: options.form });
    let pages = 0;
    let passwordSubmitted = false;
    let submitted: FilledForm | undefined;
    for (let step = 0; step < 20; step++) {
      const response = exchange.response;
      if (!response) return { failure: `no response from ${url.origin}${url.pathname}: ${exchange.error}`, pages };
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, url);
        if (options.until(next)) return { arrived: next, pages, passwordSubmitted };
        url = next;
        exchange = await this.send(url.href);
        continue;
      }
      const lastPage = { url: `${url.origin}${url.pathname}`, status: response.status, text: pageText(response.text) };
      const forms = parseForms(response.text);
      if (
        submitted &&
        submitted.filled.length > 0 &&
        forms.some((form) => form.controls.some((c) => c.type === "password"))
      ) {
        return {
          failure: `the provider did not accept the sign-in with the --sign-in values (wrong credentials?; filled ${submitted.assignment}): it answered ${response.status} with its sign-in form again, saying "${lastPage.text}"`,
          pages,
          lastPage,
        };
      }
      if (options.interactive === false)
        return {
          failure: `the provider showed a page (status ${response.status}) instead of redirecting: "${lastPage.text}"`,
          pages,
          lastPage,
        };
      const submission = chooseSubmission(forms, this.signIn, scopes);
      if (!submission) {
        if (/<script\b/i.test(response.text) && forms.length === 0) {
          return {
            failure: `the page at ${lastPage.url} (status ${response.status}) has no HTML form: it builds its sign-in with JavaScript; run with --browser`,
            pages,
            lastPage,
          };
        }
        return {
          failure: `stopped at ${lastPage.url} (status ${response.status}) on a page without a form to submit: "${lastPage.text}"`,
          pages,
          lastPage,
        };
      }
      const missing =
        Object.keys(this.signIn).length === 0 && forms.some((form) => form.controls.some((c) => c.type === "password"));
      if (missing)
        return {
          failure: `the sign-in form at ${lastPage.url} asks for a password and no --sign-in values were given (e.g. --sign-in login=<user> --sign-in password=<password>)`,
          pages,
          lastPage,
        };
      pages += 1;
      passwordSubmitted ||= submission.password;
      submitted = submission;
      const action = new URL(submission.action || url.href, url);
      if (submission.method === "post") {
        url = action;
        exchange = await this.send(action.href, { method: "POST", body: submission.body.toString() });
      } else {
        action.search = submission.body.toString();
        url = action;
        exchange = await this.send(action.href);
      }
    }
    return { failure: "got through more than 20 pages without arriving", pages };
  }

  reset(): Promise<void> {
    this.current = { cookies: new Map() };
    this.sessions.push(this.current);
    return Promise.resolve();
  }

  sessionsToEnd(): Promise<DriverSession[]> {
    return Promise.resolve(this.sessions.filter((session) => session.cookies.size > 0));
  }

  async navigateIn(session: DriverSession, url: string, options: NavigateOptions): Promise<Navigation> {
    const current = this.current;
    this.current = session as FormSession;
    try {
      return await this.navigate(url, options);
    } finally {
      this.current = current;
    }
  }

  async close(): Promise<void> {}
}
