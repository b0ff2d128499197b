// What the contract's examples say about "now", made true on the day the mock serves them: the examples in specs/
// stay stable (the docs, the generated types and the tests read them), and the mock rewrites at serve time
// - links' X-RateLimit-Reset, a fixed Unix time in the example, to the end of a window starting now (the contract's
//   x-rate-limit window), so that `contracts proxy` in front of the mock does not see a reset long past;
// - a demo account's `expires`, a fixed 2025 date in the example, to a year from now, so the demo account is not
//   shown expired.
import { loadContract } from "../lib/contract/index.js";
import type { ApiName } from "../lib/contract/index.js";

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** `2026-12-02 00:00:00`: the links API's date format, in UTC. */
const linksDateTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

interface Output {
  headers?: Record<string, unknown>;
  body?: unknown;
}

/** The output with the values above taken relative to `now`; anything else as Prism made it. */
export function withLiveValues<T extends Output>(api: ApiName, output: T, now = Date.now()): T {
  if (api !== "links") return output;
  const headers = { ...output.headers };
  const reset = Object.keys(headers).find((name) => name.toLowerCase() === "x-ratelimit-reset");
  if (reset) {
    const { windowSeconds } = loadContract("links").document.info["x-rate-limit"] as { windowSeconds: number };
    headers[reset] = String(Math.ceil(now / 1000) + windowSeconds);
  }
  let body = output.body;
  const data = (body as { data?: { expires?: unknown } } | undefined)?.data;
  if (data && typeof data === "object" && typeof data.expires === "string" && DATE_TIME.test(data.expires))
    body = { ...(body as object), data: { ...data, expires: linksDateTime(now + YEAR_MS) } };
  return { ...output, headers, body };
}
