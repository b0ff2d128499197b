// --nonce: how a run numbers pay's nonces. A gateway that requires increasing nonces refuses every later request whose
// nonce is not above the highest it has seen, so a run that counts finer than the shop's own client (microseconds
// against its seconds) would lock that client out of production. The default, `seconds`, is never ahead of the wall
// clock in whole seconds: each nonce is the current Unix time in seconds, strictly increasing, and the run waits for
// the next second when it needs another nonce within the same one. A client that counts in seconds, or finer, keeps
// being accepted after the run. The same rule, under the same name, is the Schemathesis hooks' default.
import type { NonceSource } from "../../lib/nonce.js";
import { UsageError } from "../../lib/cli.js";

export type NonceMode =
  | { unit: "seconds" | "milliseconds" | "microseconds" }
  /** `counter:<start>`: start, start + 1, ..., for a gateway whose client keeps its own counter. */
  | { counter: number };

export const DEFAULT_NONCE: NonceMode = { unit: "seconds" };

const UNITS = ["seconds", "milliseconds", "microseconds"] as const;

/** --nonce seconds | milliseconds | microseconds | counter:<start>; a UsageError names what is wrong. */
export function parseNonceMode(text: string | undefined): NonceMode {
  if (text === undefined) return DEFAULT_NONCE;
  if ((UNITS as readonly string[]).includes(text)) return { unit: text as (typeof UNITS)[number] };
  const counter = /^counter:(\d{1,15})$/.exec(text);
  if (counter && Number(counter[1]) >= 1) return { counter: Number(counter[1]) };
  throw new UsageError(
    `--nonce takes seconds, milliseconds, microseconds or counter:<start> (a positive integer), got "${text}"`,
  );
}

/** The mode as --nonce writes it: `seconds`, `counter:42`. */
export function nonceModeName(mode: NonceMode): string {
  return "counter" in mode ? `counter:${mode.counter}` : mode.unit;
}

/** The mode in words, for the report: what a nonce is and what it means for the shop's own client. */
export function nonceModeText(mode: NonceMode): string {
  if ("counter" in mode) return `counter:${mode.counter} (a counter from ${mode.counter}, one a request)`;
  if (mode.unit === "seconds")
    return "seconds (the Unix time in seconds, strictly increasing: the run waits for the next second, never ahead of the clock)";
  return `${mode.unit} (the Unix time in ${mode.unit}, strictly increasing: ahead of a client that counts in coarser units)`;
}

/** Milliseconds of the wall clock, with a fraction where the platform has one (microseconds need it). */
const preciseNow = () => performance.timeOrigin + performance.now();
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Strictly increasing nonces of a clock counted in units of `msPerUnit` milliseconds, never ahead of that clock: when
 * the clock has not moved on since the last nonce, the next waits until it has. Calls are served one at a time.
 */
export function clockNonceSource(
  msPerUnit: number,
  clock: () => number = msPerUnit >= 1 ? Date.now : preciseNow,
  sleep: (ms: number) => Promise<void> = pause,
): NonceSource {
  let last = 0;
  let queue: Promise<number> = Promise.resolve(0);
  const take = async (): Promise<number> => {
    for (;;) {
      const now = Math.floor(clock() / msPerUnit);
      if (now > last) return (last = now);
      await sleep(Math.max(1, Math.ceil((last + 1) * msPerUnit - clock())));
    }
  };
  return {
    next() {
      queue = queue.then(take, take);
      return queue;
    },
  };
}

/** The run's nonce source for a mode. */
export function runNonceSource(mode: NonceMode): NonceSource {
  if ("counter" in mode) {
    let next = mode.counter;
    return { next: () => Promise.resolve(next++) };
  }
  return clockNonceSource({ seconds: 1000, milliseconds: 1, microseconds: 0.001 }[mode.unit]);
}

/** The shell expression a reproduction takes its fresh nonce from, in the run's mode. */
export function shellNonce(mode: NonceMode): string {
  if ("counter" in mode) return "${NONCE:?set NONCE to the next value of your counter}";
  return { seconds: "$(date +%s)", milliseconds: "$(date +%s%3N)", microseconds: "$(date +%s%6N)" }[mode.unit];
}
