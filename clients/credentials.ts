// A credential that goes into a header is checked when the client is made: fetch would refuse it on every call with
// an error that quotes the header's value, and so the secret itself.

/** Throws if `value` cannot be a header value (a line break or NUL, a character beyond Latin-1, nothing at all). */
export function checkHeaderCredential(option: string, value: string): void {
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`${option} is empty`);
  // eslint-disable-next-line no-control-regex -- the control characters are what is being looked for
  if (/[\0\r\n]|[^\u0000-\u00ff]/.test(value))
    throw new TypeError(
      `${option} has a character that a header cannot carry (a line break, NUL or a non-Latin-1 character); the value is not shown`,
    );
}
