// Sends the runner's requests one at a time, never faster than the API allows: a budget of N requests per minute
// (from --rate-limit, else the contract's x-rate-limit) and, on top, the live X-RateLimit-* headers followed by the
// clients' own RateLimiter. Every exchange is recorded with its timing for the reports.
import { Agent, type Dispatcher, request as undiciRequest } from "undici";
import { type HeaderReader, RateLimiter } from "../../lib/rate-limit.js";
import type { PreparedRequest } from "../apis.js";
import type { Exchange, RecordedResponse } from "../model/exchange.js";

/**
 * At most `limit` requests in any window of `windowMs` (a sliding window, stricter than a server's fixed one). A
 * request counts from the moment its response has arrived, so however long the network takes, the server never sees
 * more than `limit` arrivals in one window.
 */
export class RequestBudget {
  private readonly slots: Array<{ at: number }> = [];
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Waits for a free slot; resolves `undefined` (no slot) when `signal` aborts the wait. */
  async take(signal?: AbortSignal): Promise<{ at: number } | undefined> {
    for (;;) {
      const now = this.now();
      while (this.slots.length > 0 && this.slots[0]!.at <= now - this.windowMs) this.slots.shift();
      if (this.slots.length < this.limit) {
        const slot = { at: Number.POSITIVE_INFINITY }; // in flight: counts until its response is in
        this.slots.push(slot);
        return slot;
      }
      if (signal?.aborted) return undefined;
      await sleep(Math.max(1, this.slots[0]!.at + this.windowMs - now + 1), signal);
    }
  }

  /** Marks the request of `slot` as answered now. */
  release(slot: { at: number }): void {
    // Answered slots stay in order of their answers, ahead of those still in flight: move this one just before the
    // first in-flight slot (no sort of the whole window on every request).
    this.slots.splice(this.slots.indexOf(slot), 1);
    slot.at = this.now();
    const inFlight = this.slots.findIndex((other) => other.at === Number.POSITIVE_INFINITY);
    this.slots.splice(inFlight === -1 ? this.slots.length : inFlight, 0, slot);
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

export interface TransportOptions {
  budget?: RequestBudget;
  /** The names of the rate-limit headers to follow, from the contract (default X-RateLimit-*). */
  rateLimitHeaders?: { limit: string; remaining: string; reset: string };
  /**
   * The contract's window: a reset announced further ahead is not waited for longer (rate_limit_headers_consistent
   * reports it).
   */
  rateLimitWindowMs?: number;
  timeoutMs: number;
  /** The most of a body the runner reads (default 16 MiB). */
  maxBodyBytes?: number;
  /** Aborted on Ctrl-C: waits end at once and their requests are not sent; requests already sent finish. */
  signal?: AbortSignal;
  onExchange?: (exchange: Exchange) => void;
}

/** Generous: a page of hundreds of orders is hundreds of KiB, and a body cut short is not valid JSON. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The body up to `limit` bytes; a larger one is left unread (its connection closed) and flagged. */
async function readBody(
  body: Dispatcher.ResponseData["body"],
  limit: number,
): Promise<{ text: string; tooLarge?: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      return { text: Buffer.concat(chunks).subarray(0, limit).toString("utf8"), tooLarge: limit };
    }
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}

/** undici's response headers (lower-case names; a repeated header as an array) as the exchange records them. */
function headersOf(
  raw: Dispatcher.ResponseData["headers"],
): HeaderReader & { single: Record<string, string>; setCookies: string[] } {
  const single: Record<string, string> = {};
  let setCookies: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (name === "set-cookie") setCookies = Array.isArray(value) ? value : [value];
    // As fetch's Headers show them: repeated values joined, except Set-Cookie, which is never joined.
    single[name] = Array.isArray(value) ? (name === "set-cookie" ? value[value.length - 1]! : value.join(", ")) : value;
  }
  return { single, setCookies, get: (name) => single[name.toLowerCase()] ?? null };
}

/** Methods a client may send again after a connection failure (RFC 9110 §9.2.2): the retry changes nothing. */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);

/**
 * Where a request that may not be sent twice goes: a new connection each time (no keep-alive). A server may close an
 * idle kept-alive connection at any moment (RFC 9112 §9.5), and the client learns of it only once its event loop has
 * read the close. On a busy machine that comes seconds late, after undici's margin on the server's `Keep-Alive:
 * timeout`, so a POST written in between was reset (ECONNRESET) with nothing to show that the server had not acted on
 * it. A new connection cannot have been closed as idle; the price is one handshake per such request.
 */
const NEW_CONNECTION_EACH = new Agent({ pipelining: 0 });

/**
 * One request. An idempotent request whose connection was closed under it before any response (a kept-alive
 * connection the server closed while the runner was busy, so that the request went out on a dead socket) is sent
 * once more on a new connection, as RFC 9110 §9.2.2 allows: a busy CI machine is no server error. A server that
 * resets again is reported (not_a_server_error). Any other request (a POST) is never sent twice, and never on a
 * kept-alive connection (NEW_CONNECTION_EACH).
 */
async function requestOnce(request: PreparedRequest, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  const idempotent = IDEMPOTENT.has(request.method.toUpperCase());
  const { method, headers, body } = request;
  const dispatcher = idempotent ? undefined : NEW_CONNECTION_EACH;
  const send = () => undiciRequest(request.url, { method, headers, body, signal, dispatcher });
  try {
    return await send();
  } catch (error) {
    const code = (error as { code?: string }).code;
    const closed = code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE";
    if (!closed || !idempotent || signal.aborted) throw error;
    return send();
  }
}

/** An exchange the transport did not send: an interrupted run, or a spent request budget. */
function notSent(request: PreparedRequest, why: string, budgetSpent = false): Exchange {
  const exchange: Exchange = { request, interrupted: true, error: why, durationMs: 0, receivedAt: Date.now() };
  if (budgetSpent) exchange.budgetSpent = true;
  return exchange;
}

export class Transport {
  private readonly limiter: RateLimiter;
  requestCount = 0;
  /** Requests taken and not answered yet, counted against the request cap. */
  private inFlight = 0;
  /** --max-requests: beyond it nothing is sent until the cleanup (ignoreInterrupts). */
  private cap: number | undefined;
  constructor(private readonly options: TransportOptions) {
    this.limiter = new RateLimiter({ headers: options.rateLimitHeaders, maxResetMs: options.rateLimitWindowMs });
  }

  /** From now on waits are not cut short by the signal (the cleanup after Ctrl-C keeps to the limits too). */
  ignoreInterrupts(): void {
    this.options.signal = undefined;
    this.cap = undefined;
  }

  /** Sends at most this many requests in all; later ones come back not sent. */
  capRequests(max: number | undefined): void {
    this.cap = max;
  }

  /** The request cap is reached: nothing more is sent before the cleanup. */
  get capReached(): boolean {
    return this.cap !== undefined && this.requestCount + this.inFlight >= this.cap;
  }

  async send(request: PreparedRequest): Promise<Exchange> {
    if (this.capReached) return notSent(request, "not sent: the request budget is spent", true);
    this.inFlight += 1;
    try {
      return await this.sendInBudget(request);
    } finally {
      this.inFlight -= 1;
    }
  }

  private async sendInBudget(request: PreparedRequest): Promise<Exchange> {
    const budget = this.options.budget;
    const slot = budget ? await budget.take(this.options.signal) : undefined;
    if (budget && !slot) return notSent(request, "interrupted before it was sent");
    try {
      return await this.sendNow(request);
    } finally {
      if (slot) budget!.release(slot);
    }
  }

  private async sendNow(request: PreparedRequest): Promise<Exchange> {
    let started = Date.now();
    let exchange: Exchange;
    // One timer per request, cleared when the body is in (AbortSignal.timeout would leave each one pending for the
    // whole timeout, thousands of them in a fast run). It starts when the request is sent: the wait for the server's
    // window before that is the runner's own, not the server being slow.
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let sent = false;
    try {
      // The signal ends a wait for the server's window (Ctrl-C, SIGTERM); a request already sent finishes.
      const response = await this.limiter.schedule(async () => {
        sent = true;
        started = Date.now();
        timer = setTimeout(
          () => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
          this.options.timeoutMs,
        );
        const answer = await requestOnce(request, controller.signal);
        return { answer, headers: headersOf(answer.headers) };
      }, this.options.signal);
      this.requestCount += 1;
      const { text, tooLarge } = await readBody(response.answer.body, this.options.maxBodyBytes ?? MAX_BODY_BYTES);
      const headers = response.headers.single;
      let json: unknown;
      let isJson = false;
      try {
        // A body cut at the limit is not parsed: the checks say it was too large, not that it is not JSON.
        if (tooLarge === undefined) {
          json = JSON.parse(text);
          isJson = true;
        }
      } catch {
        // not JSON; the checks decide whether that matters
      }
      const recorded: RecordedResponse = {
        status: response.answer.statusCode,
        headers,
        text,
        json,
        isJson,
        setCookies: response.headers.setCookies,
        ...(tooLarge === undefined ? {} : { tooLarge }),
      };
      exchange = { request, response: recorded, durationMs: Date.now() - started, receivedAt: Date.now() };
    } catch (error) {
      if (!sent && this.options.signal?.aborted) return notSent(request, "interrupted before it was sent");
      this.requestCount += 1;
      // undici names a network failure by its code (ECONNREFUSED) on the error itself or on its cause.
      const failure = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
      const code = typeof failure.code === "string" ? failure.code : undefined;
      exchange = {
        request,
        error: code ?? failure.cause?.code ?? failure.cause?.message ?? failure.message ?? String(error),
        durationMs: Date.now() - started,
        receivedAt: Date.now(),
      };
    } finally {
      clearTimeout(timer);
    }
    this.options.onExchange?.(exchange);
    return exchange;
  }
}
