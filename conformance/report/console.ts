// Where `contracts conform` writes and what interrupts it. The CLI uses the process's own streams and signals; a test
// that runs the command in its own process passes buffers instead, so that several runs can go at once and none of
// them takes over the process's signals.
import type { ProgressEvent } from "../context.js";
import { causeOf } from "./causes.js";
import type { FailureRecord } from "./ledger.js";

export interface ConformConsole {
  out(text: string): void;
  err(text: string): void;
  /** stderr is a terminal: the progress line is rewritten in place. */
  tty: boolean;
  /** The first SIGINT/SIGTERM aborts the run (which then deletes what it created); the second exits the process. */
  signals: boolean;
}

export const PROCESS_CONSOLE: ConformConsole = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  tty: Boolean(process.stderr.isTTY),
  signals: true,
};

/** The run's abort signal, fired by the first SIGINT/SIGTERM when the console takes signals; `release` when done. */
export function abortOnSignals(io: ConformConsole): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  if (!io.signals) return { signal: controller.signal, release: () => {} };
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts += 1;
    if (interrupts === 1) {
      io.err(`\n${signal}: stopping; deleting what this run created (Ctrl-C again to abandon the cleanup)\n`);
      controller.abort();
    } else {
      io.err(`${signal} again: exiting without finishing the cleanup\n`);
      process.exit(130);
    }
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    release: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}

/**
 * A quiet progress display on stderr. On a terminal, one line rewritten in place (the operation, the requests, the
 * failures and their causes). Elsewhere (CI logs), a line when an operation first starts, not one per request or
 * phase. A failure prints a line only for a cause not seen before, shortened: the report holds it in full. New
 * causes are numbered as the report numbers them (causes.ts: new ones first, in the order found); a cause the
 * baseline lists (`known`) is marked as the report marks it, `~`, and numbered there after the new ones.
 */
export function progressPrinter(
  io: ConformConsole,
  api: string,
  banner: string,
  redact: (text: string) => string,
  known: (failure: FailureRecord) => boolean = () => false,
): { event: (event: ProgressEvent) => void; done: () => void } {
  let current = "";
  let started = false;
  let requests = 0;
  let failures = 0;
  const newCauses = new Set<string>();
  const knownCauses = new Set<string>();
  const operations = new Set<string>();
  const causesText = () =>
    knownCauses.size > 0
      ? `${newCauses.size} new and ${knownCauses.size} known cause(s)`
      : `${newCauses.size} cause(s)`;
  const line = () => `[${api}] ${current} · ${requests} requests · ${failures} failure(s) of ${causesText()}`;
  return {
    event(event) {
      // The banner waits for the first progress, so that an unreachable target is reported in one line.
      if (!started && event.type !== "request") {
        started = true;
        io.err(`${banner}\n`);
      }
      if (event.type === "request") {
        requests = event.count;
        if (io.tty) io.err(`\r\u001b[2K${line()}`);
        return;
      }
      if (event.type === "plan") {
        io.err(`${planLine(event)}\n`);
        return;
      }
      if (event.type === "failure") {
        failures += 1;
        const { failure } = event;
        const cause = failure.key ?? causeOf(failure);
        if (newCauses.has(cause) || knownCauses.has(cause)) {
          if (io.tty) io.err(`\r\u001b[2K${line()}`);
          return;
        }
        const isKnown = known(failure);
        (isKnown ? knownCauses : newCauses).add(cause);
        const mark = isKnown ? "~ known cause (in the baseline)" : `✗ cause ${newCauses.size}`;
        const text = redact(`  ${mark}: ${failure.check} on ${failure.operationId}: ${shorten(failure.message)}`);
        io.err(io.tty ? `\r\u001b[2K${text}\n${line()}` : `${text}\n`);
        return;
      }
      current = `${event.operationId}: ${event.phase}`;
      if (io.tty) io.err(`\r\u001b[2K${line()}`);
      else if (!operations.has(event.operationId)) {
        operations.add(event.operationId);
        io.err(`${line()}\n`);
      }
    },
    done() {
      if (io.tty) io.err("\n");
      else if (started) io.err(`${line().replace(/^\[\w+\] [^·]*· /, `[${api}] done · `)}\n`);
    },
  };
}

/**
 * What the run is about to do and how long it expects to take at the rate limit: `plan: 143 cases, about 180
 * requests, all within the budget; about 6 min at the rate limit`, or which part of it the budget reaches.
 */
export function planLine(plan: Extract<ProgressEvent, { type: "plan" }>): string {
  const capped = plan.maxRequests !== undefined && plan.requests > plan.maxRequests;
  const sent = capped ? plan.maxRequests! : plan.requests;
  const reach = capped
    ? `the budget of ${plan.maxRequests} requests reaches part of it (--max-requests none runs it all)`
    : "all within the budget";
  const minutes = plan.msPerRequest === undefined ? undefined : Math.ceil((sent * plan.msPerRequest) / 60_000);
  const time = minutes === undefined ? "" : `; about ${minutes} min at the rate limit`;
  return `plan: ${plan.cases} cases, about ${plan.requests} requests, ${reach}${time}`;
}

/** A cause's message on one progress line: the report has it in full. */
function shorten(message: string, max = 160): string {
  const oneLine = message.replace(/\s+/g, " ");
  return oneLine.length > max ? `${oneLine.slice(0, max)}… (in full in the report)` : oneLine;
}
