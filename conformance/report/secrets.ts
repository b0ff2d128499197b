// Keeps secrets out of every output. Every text the runner prints or writes passes through `redact`, which replaces
// each known secret (credentials, signatures, tokens the provider issued during the run) by a placeholder; curl
// reproductions name the environment variable instead, so they run as they are once the variables are set.
import { escapeRegExp } from "../../lib/regexp.js";
import { type Credentials, CREDENTIAL_ENV, type PreparedRequest, SECRET_CREDENTIALS } from "../apis.js";

/** `application/x-www-form-urlencoded` encoding of one value (space as `+`, `~ ! ' ( )` percent-encoded). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function xmlEscape(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!,
  );
}

/**
 * A secret as it can travel: raw and percent-encoded (encodeURIComponent, encodeURI, the form encoding; either hex
 * case).
 */
function encodedForms(value: string): string[] {
  const forms = new Set<string>();
  for (const form of [value, encodeURIComponent(value), formEncode(value), encodeURI(value)]) {
    forms.add(form);
    forms.add(form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  }
  return [...forms];
}

/**
 * Every form in which a secret can reach an output: raw, percent-encoded (encodeURIComponent and the form encoding,
 * with upper- and lower-case hex), JSON-escaped (once, and twice for a JSON body inside the JSON report) and
 * XML-escaped (the JUnit report). Other JSON encoders' escapes (`\/`, `\u002B`) are matched by `tolerantPattern`.
 */
export function secretForms(value: string): string[] {
  const forms = new Set(encodedForms(value));
  for (const form of [...forms]) {
    const once = JSON.stringify(form).slice(1, -1);
    forms.add(once);
    forms.add(JSON.stringify(once).slice(1, -1));
  }
  for (const form of [...forms]) forms.add(xmlEscape(form));
  return [...forms];
}

/** `\uXXXX` for each UTF-16 unit of `char`, as a pattern: encoders differ in hex case (PHP, Python: a-f; .NET: A-F). */
function unicodeEscapePattern(char: string, backslash: string): string {
  let pattern = "";
  for (let i = 0; i < char.length; i++) {
    const hex = char.charCodeAt(i).toString(16).padStart(4, "0");
    pattern += `${backslash}u${[...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join("")}`;
  }
  return pattern;
}

/**
 * The ways one character of a secret can be written inside a JSON string: JSON encoders escape different sets (PHP's
 * json_encode writes `/` as `\/` and non-ASCII as `\u00e9`, Go escapes `< > &`, Gson also `= '`, .NET also `+`), each
 * once or, for a JSON body inside the JSON report, twice; and XML-escaped for the JUnit report.
 */
function charPattern(char: string): string {
  if (/^[A-Za-z0-9]$/.test(char)) return char;
  const once = new Set([char, JSON.stringify(char).slice(1, -1)]);
  if (char === "/") once.add("\\/");
  const literal = new Set(once);
  for (const form of once) literal.add(JSON.stringify(form).slice(1, -1));
  for (const form of [...literal]) literal.add(xmlEscape(form));
  const alternatives = [
    ...[...literal].map(escapeRegExp),
    unicodeEscapePattern(char, "\\\\"),
    unicodeEscapePattern(char, "\\\\\\\\"),
  ];
  return `(?:${alternatives.join("|")})`;
}

/** A pattern that matches `form` however a JSON encoder escaped its characters. */
export function tolerantPattern(form: string): string {
  return [...form].map(charPattern).join("");
}

/**
 * The HTTP Basic credentials of a client (RFC 6749 §2.3.1: each part form-encoded first, and as most clients send them,
 * raw).
 */
export function basicCredentials(clientId: string, clientSecret: string): string[] {
  return [...new Set([`${clientId}:${clientSecret}`, `${formEncode(clientId)}:${formEncode(clientSecret)}`])].map(
    (pair) => Buffer.from(pair, "utf8").toString("base64"),
  );
}

/**
 * Where a value starts in the parts of a request: the whole text (a header's value), after `=` (a query or form
 * parameter, a cookie), after a header's name (`Name: value`, as reproductions write headers), after an
 * authentication scheme (`Bearer value`), or as a JSON string value (`: "value"`).
 */
const SHORT_VALUE_BEFORE = String.raw`^|=|^[A-Za-z0-9-]+:\s*|^(?:[A-Za-z0-9-]+:\s*)?[A-Za-z][A-Za-z0-9-]*\s+|:\s*"`;
/** Where that value ends: the end of the text, the next parameter (`&`), a fragment, a cookie (`;`), a JSON string. */
const SHORT_VALUE_AFTER = String.raw`$|[&#;"]`;

/** `bounded`: a short secret, matched only as a whole value (see `addShort`). */
type SecretEntry = { value: string; placeholder: string; env?: string; bounded?: RegExp };
/**
 * One encoded form of a secret as a pattern that tolerates any JSON escaping of its characters. `anchor`: the form's
 * longest run of letters and digits, which every match contains as it is (no encoder escapes those), or "" if it
 * has none.
 */
type TolerantEntry = { source: string; length: number; placeholder: string; anchor: string; whole?: RegExp };

/** The longest run of ASCII letters and digits in `form` ("" if none): tolerantPattern keeps those literal. */
function longestAlphanumericRun(form: string): string {
  return (form.match(/[A-Za-z0-9]+/g) ?? []).reduce(
    (longest, run) => (run.length > longest.length ? run : longest),
    "",
  );
}

export class Secrets {
  /** A form of a secret → its placeholder and environment variable (for reproductions; raw forms only). */
  private readonly byValue = new Map<string, SecretEntry>();
  /** Longest first, so a secret (or form) that contains another is replaced whole; rebuilt after an `add`. */
  private sorted: SecretEntry[] | undefined;
  /** Longest first, so a secret (or form) that contains another is replaced whole. */
  private readonly tolerant: TolerantEntry[] = [];
  /** The pattern of each set of entries a text may hold (by their indices in `tolerant`); cleared after an `add`. */
  private readonly patterns = new Map<string, RegExp>();
  /** Configured secrets shorter than 4 characters (see `addShort`). */
  private readonly short: SecretEntry[] = [];

  constructor(credentials: Credentials) {
    for (const key of SECRET_CREDENTIALS) {
      const value = credentials[key];
      if (value) this.addConfigured(value, `$${CREDENTIAL_ENV[key]}`, CREDENTIAL_ENV[key]);
    }
    if (credentials.clientId && credentials.clientSecret) {
      for (const basic of basicCredentials(credentials.clientId, credentials.clientSecret))
        this.add(basic, "<Basic $IDENTITY_CLIENT_ID:$IDENTITY_CLIENT_SECRET>");
    }
    // A login name is not a secret (and often appears in ordinary data); passwords and one-time codes are.
    for (const [field, value] of Object.entries(credentials.signIn ?? {}))
      if (value && /pass|secret|otp|pin|code|token/i.test(field)) this.addConfigured(value, `<sign-in ${field}>`);
  }

  private get entries(): SecretEntry[] {
    return (this.sorted ??= [...this.byValue.values(), ...this.short].sort((a, b) => b.value.length - a.value.length));
  }

  private addConfigured(value: string, placeholder: string, env?: string): void {
    if (value.length < 4) this.addShort(value, placeholder, env);
    else this.add(value, placeholder, env);
  }

  /**
   * A configured secret too short to replace in all text (a 1-character key would blank out every such letter of
   * the reports): it is replaced where the run sent it, in the requests' headers, URLs and bodies (`redactSent`)
   * and the reproductions, and there only as a whole value (`SHORT_VALUE_BEFORE`, `SHORT_VALUE_AFTER`): a password
   * `x` is masked in `password=x`, never in `application/x-www-form-urlencoded`.
   */
  private addShort(value: string, placeholder: string, env?: string): void {
    for (const form of new Set(encodedForms(value))) {
      const bounded = new RegExp(`(?<=${SHORT_VALUE_BEFORE})${escapeRegExp(form)}(?=${SHORT_VALUE_AFTER})`, "g");
      this.short.push({ value: form, placeholder, env, bounded });
    }
    this.sorted = undefined;
  }

  /** A part of a request the run sent: every secret replaced, the short ones too (as whole words). */
  redactSent(text: string): string {
    let redacted = this.redact(text);
    for (const entry of this.short) redacted = redacted.replace(entry.bounded!, () => entry.placeholder);
    return redacted;
  }

  /** Adds a secret in every form it can take; `env` names the variable a reproduction reads it from. */
  add(value: string, placeholder: string, env?: string): void {
    // Very short values would blank out ordinary text; a real secret is never that short.
    if (value.length < 4 || this.byValue.has(value)) return;
    for (const form of secretForms(value))
      if (!this.byValue.has(form)) this.byValue.set(form, { value: form, placeholder, env });
    for (const form of encodedForms(value)) {
      const entry = {
        source: tolerantPattern(form),
        length: form.length,
        placeholder,
        anchor: longestAlphanumericRun(form),
      };
      const at = this.tolerant.findIndex((other) => other.length < entry.length);
      this.tolerant.splice(at === -1 ? this.tolerant.length : at, 0, entry);
    }
    // Pay signs every request: the sorted list and the patterns are rebuilt when next needed, not on every add.
    this.sorted = undefined;
    this.patterns.clear();
  }

  redact(text: string): string {
    if (this.byValue.size === 0) return text;
    // One pattern of every secret tried at each character of every text was two fifths of a run's CPU once the
    // provider had issued some tokens (an identity run: 1.2 of 2.9 CPU-s). Only the secrets whose anchor the text
    // contains can match in it; usually none.
    const candidates: number[] = [];
    this.tolerant.forEach((entry, index) => {
      if (text.includes(entry.anchor)) candidates.push(index);
    });
    if (candidates.length === 0) return text;
    const key = candidates.join(",");
    let pattern = this.patterns.get(key);
    if (!pattern) {
      pattern = new RegExp(candidates.map((index) => this.tolerant[index]!.source).join("|"), "g");
      this.patterns.set(key, pattern);
    }
    return text.replace(pattern, (found) => this.byValue.get(found)?.placeholder ?? this.escapedPlaceholder(found));
  }

  /** The placeholder of a secret found in an escaping no exact form has (rare: the patterns are tried one by one). */
  private escapedPlaceholder(found: string): string {
    for (const entry of this.tolerant)
      if ((entry.whole ??= new RegExp(`^(?:${entry.source})$`)).test(found)) return entry.placeholder;
    return "<secret>";
  }

  /** `text` as a double-quoted shell word in which every secret with a variable is `${VAR}` and others are redacted. */
  shellWord(text: string): string {
    type Part = { literal: string } | { env: string };
    let parts: Part[] = [{ literal: text }];
    for (const entry of this.entries) {
      parts = parts.flatMap((part): Part[] => {
        if (!("literal" in part)) return [part];
        return part.literal.split(entry.bounded ?? entry.value).flatMap((piece, index): Part[] => {
          if (index === 0) return [{ literal: piece }];
          return [entry.env ? { env: entry.env } : { literal: entry.placeholder }, { literal: piece }];
        });
      });
    }
    const body = parts
      .map((part) => ("env" in part ? `\${${part.env}}` : part.literal.replace(/(["\\$`])/g, "\\$1")))
      .join("");
    return `"${body}"`;
  }
}

/**
 * A curl command that reproduces the request. Secrets become environment variables; a pay request gets a fresh
 * nonce in the shell (a nonce is good for one request only, and the run used it), in the run's --nonce mode
 * (`nonce`, a shell expression; seconds by default, never ahead of the shop's own client), and its signature is
 * computed there over the exact body: from $PAY_SECRET, or from the made-up key of a wrong signature. `times` sends the
 * identical request more than once (a replay); `sentBefore` is sent first with the same fresh nonce (a nonce used on
 * one operation, replayed on another).
 */
export function curlCommand(
  request: PreparedRequest,
  secrets: Secrets,
  options: { times?: number; sentBefore?: PreparedRequest; nonce?: string } = {},
): string {
  const fresh = options.nonce ?? "$(date +%s)";
  if (!options.sentBefore) {
    const { setup, curl } = curlLines(request, secrets, fresh);
    const times = options.times ?? 1;
    return [...setup, times > 1 ? `for attempt in $(seq ${times}); do ${curl}; echo; done` : curl].join("\n");
  }
  const lines = [`NONCE=${fresh}`];
  for (const each of [options.sentBefore, request]) {
    const { setup, curl } = curlLines(each, secrets, "$NONCE");
    lines.push(...setup, each === request ? curl : `${curl}; echo`);
  }
  return lines.join("\n");
}

/** The shell lines that put `nonce` (a shell expression) into the body and sign it, and the curl command. */
function curlLines(request: PreparedRequest, secrets: Secrets, nonce: string): { setup: string[]; curl: string } {
  const setup: string[] = [];
  let bodyWord = request.body === undefined ? undefined : secrets.shellWord(request.body);
  const signed = (request.signed || request.wrongKey !== undefined) && request.body !== undefined;
  if (request.body !== undefined && (signed || request.nonce)) {
    const template = request.body.replace(/("nonce"\s*:\s*)\d+/, "$1__NONCE__");
    setup.push(`BODY=${secrets.shellWord(template)}; BODY="\${BODY/__NONCE__/${nonce}}"`);
    bodyWord = '"$BODY"';
  }
  const words = ["curl", "-sS", "-i", "-X", request.method, secrets.shellWord(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (signed && name === "Authorization") {
      // Re-signed in the shell: the signature covers the exact body bytes, which carry a fresh nonce.
      const key = request.signed ? '"$PAY_SECRET"' : `'${request.wrongKey!.replace(/'/g, "'\\''")}'`;
      words.push(
        "-H",
        `"Authorization: Bearer $(printf '%s' "$BODY" | openssl dgst -sha256 -hmac ${key} -r | cut -d' ' -f1)"`,
      );
    } else words.push("-H", secrets.shellWord(`${name}: ${value}`));
  }
  if (bodyWord !== undefined) words.push("--data-binary", bodyWord);
  return { setup, curl: words.join(" ") };
}
