// What a person does on a sign-in, consent or logout page, as rules shared by every driver: which field a
// --sign-in value goes into, and which of the page's buttons to press (accept, never cancel).

/** What a driver knows of one form field, from the HTML or from the live page. */
export interface FieldInfo {
  tag: string;
  type: string;
  name?: string;
  id?: string;
  label?: string;
  placeholder?: string;
  autocomplete?: string;
}

/** The autocomplete tokens (HTML §4.10.18.7.1) that mark the field a --sign-in key means. */
const AUTOCOMPLETE: Record<string, string[]> = {
  login: ["username", "email"],
  username: ["username", "email"],
  email: ["email", "username"],
  password: ["current-password", "password"],
};

/** Input types that a person never types into. */
const NOT_TYPED = new Set(["hidden", "submit", "button", "image", "reset", "checkbox", "radio", "file"]);

/** The --sign-in keys that name the account, typed only into a field that shows what is typed. */
const LOGIN_KEYS = new Set(["login", "username", "email"]);

/**
 * Which fields a --sign-in key may go into at all, whatever their names say: the password only into a password
 * input, the login (login, username, email) only into one that is not. Names are not enough: a page whose password
 * input has the id `normal_login_password` would otherwise get the login in its password field.
 */
export function fitsRole(key: string, field: FieldInfo): boolean {
  const wanted = key.toLowerCase();
  if (wanted === "password") return field.type === "password";
  if (LOGIN_KEYS.has(wanted)) return field.type !== "password";
  return true;
}

/** A field as a message names it (input#id, input[name=…]): never its value, which may be a secret. */
export function describeField(field: FieldInfo): string {
  if (field.id) return `${field.tag}#${field.id}`;
  if (field.name) return `${field.tag}[name=${field.name}]`;
  return `${field.tag}[type=${field.type}]`;
}

/** Which field took which --sign-in key, for a failed sign-in's message ("login → input#user, password → …"). */
export function describeAssignment(assigned: Map<number, string>, fields: FieldInfo[]): string {
  const parts = [...assigned].map(([index, key]) => `${key} → ${describeField(fields[index]!)}`);
  return parts.length ? parts.join(", ") : "no field took a --sign-in value";
}

/**
 * The field a --sign-in key is meant for, among those its role allows (fitsRole): by name, then id, then label,
 * placeholder and autocomplete token; for login/username and password keys, also the page's username-like field or
 * its password field.
 */
export function matchField(key: string, fields: FieldInfo[]): number {
  const wanted = key.toLowerCase();
  const typed = fields
    .map((field, index) => ({ field, index }))
    .filter(({ field }) => !NOT_TYPED.has(field.type) && fitsRole(wanted, field));
  const has = (text: string | undefined) => (text ?? "").toLowerCase();
  const tests: Array<(f: FieldInfo) => boolean> = [
    (f) => has(f.name) === wanted,
    (f) => has(f.id) === wanted,
    (f) => has(f.label).replace(/[*:]/g, "").trim() === wanted,
    (f) => has(f.label).includes(wanted),
    (f) => has(f.placeholder).includes(wanted),
    (f) =>
      has(f.autocomplete)
        .split(/\s+/)
        .some((token) => (AUTOCOMPLETE[wanted] ?? [wanted]).includes(token)),
  ];
  if (wanted === "password") tests.push((f) => f.type === "password");
  if (LOGIN_KEYS.has(wanted)) {
    tests.push(
      (f) => f.type === "email" || /user|login|e-?mail|account/.test(`${has(f.name)} ${has(f.id)} ${has(f.label)}`),
    );
    tests.push((f) => f.type === "text" || f.type === "email");
  }
  for (const test of tests) {
    const found = typed.find(({ field }) => test(field));
    if (found) return found.index;
  }
  return -1;
}

// Words on the button a person presses to go on (sign in, allow, confirm the sign-out), and on those they would not.
const GO_ON =
  /\b(sign[ -]?in|log[ -]?in|sign[ -]?out|log[ -]?out|continue|allow|accept|approve|authori[sz]e|grant|confirm|yes|ok|next|submit|proceed|agree|verify)\b/i;
const HOLD_BACK =
  /\b(cancel|deny|decline|reject|abort|no|back|stay|not now|don[’']?t|do not|forgot|register|sign[ -]?up|create)\b/i;

/** How likely a person presses a button with this text (and name or value): the highest is pressed. */
export function buttonScore(text: string): number {
  const words = text.replace(/[_-]+/g, " ");
  if (HOLD_BACK.test(words)) return -10;
  return GO_ON.test(words) ? 10 : 0;
}

/** The scopes an authorization request asks for (its scope parameter), which a person grants on a consent page. */
export function requestedScopes(url: string, form?: string): string[] {
  const parameters =
    form !== undefined ? new URLSearchParams(form) : URL.canParse(url) ? new URL(url).searchParams : undefined;
  return (parameters?.get("scope") ?? "").split(" ").filter(Boolean);
}

/**
 * Whether a checkbox on a consent page grants one of the requested scopes, as a person ticks them to grant what the
 * application asked for: its value, name, id or label names the scope as a word (`value="email"`,
 * `name="scope_profile"`, a label "openid"). Other boxes ("remember me", terms) stay as the page set them.
 */
export function grantsRequestedScope(box: FieldInfo & { value?: string }, scopes: string[]): boolean {
  if (box.type !== "checkbox" || scopes.length === 0) return false;
  const words = [box.value, box.name, box.id, box.label]
    .map((text) => (text ?? "").toLowerCase().replace(/-/g, ""))
    .join(" ")
    .split(/[^a-z0-9]+/);
  return scopes.some((scope) =>
    scope
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .every((part) => words.includes(part)),
  );
}
