// The header rules of a forwarding intermediary (RFC 9110 §7.6.1): the hop-by-hop fields of one connection are not
// passed on, everything else is, in the order, case and repetition the sender wrote it (node's rawHeaders).

/** Fields that belong to one connection, removed whether or not Connection lists them (RFC 9110 §7.6.1). */
const ALWAYS_HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade"];

/** A message's raw headers (`[name, value, name, value, ...]`) without its hop-by-hop fields. */
export function endToEndHeaders(raw: readonly string[]): string[] {
  const hopByHop = new Set(ALWAYS_HOP_BY_HOP);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== "connection") continue;
    for (const option of raw[i + 1]!.split(",")) if (option.trim()) hopByHop.add(option.trim().toLowerCase());
  }
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!hopByHop.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  return kept;
}

/** `raw` with every Host field replaced by one naming `host` (the target's authority), where the first one was. */
export function withHost(raw: readonly string[], host: string): string[] {
  const out: string[] = [];
  let placed = false;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== "host") out.push(raw[i]!, raw[i + 1]!);
    else if (!placed) {
      out.push(raw[i]!, host);
      placed = true;
    }
  }
  return placed ? out : ["Host", host, ...out];
}

/**
 * Raw headers as the reports record them (conformance/send/transport.ts does the same for the active run): lower-case
 * names, repeated values joined with ", " as fetch's Headers shows them, Set-Cookie never joined (each on its own in
 * `setCookies`, the last one in the record) and Cookie joined with "; " (RFC 9110 §5.3 keeps it out of the rule).
 */
export function recordedHeaders(raw: readonly string[]): { headers: Record<string, string>; setCookies: string[] } {
  const headers: Record<string, string> = {};
  const setCookies: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    if (name === "set-cookie") {
      setCookies.push(value);
      headers[name] = value;
    } else if (headers[name] === undefined) headers[name] = value;
    else headers[name] = `${headers[name]}${name === "cookie" ? "; " : ", "}${value}`;
  }
  return { headers, setCookies };
}
