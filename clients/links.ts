// Typed client of the links API: bearer API key, the client-side rate limiter, and `{error: 1}` envelopes as
// LinksApiError.
import createClient from "openapi-fetch";
import type { components, paths } from "../generated/types/links.js";
import { checkHeaderCredential } from "./credentials.js";
import { notTheEnvelope, type ThrowingClient, throwingClient, type WithoutErrorEnvelope } from "./envelope.js";
import { RateLimiter, type RateLimiterOptions } from "../lib/rate-limit.js";

export type { components, operations, paths } from "../generated/types/links.js";
export {
  RateLimitError,
  RateLimiter,
  type RateLimiterOptions,
  type RateLimitSnapshot,
  type RateLimitWait,
} from "../lib/rate-limit.js";

export interface LinksClientOptions {
  /** e.g. http://127.0.0.1:4011 (mock) or your deployment's {link_url}. */
  baseUrl: string;
  apiKey: string;
  /**
   * Follow the X-RateLimit-* headers and wait instead of exceeding the cap (default true). Pass options to bound the
   * wait (`maxWaitMs`) or to be told of each wait (`onRateLimit`); a call's `signal` also aborts its wait.
   */
  rateLimit?: boolean | RateLimiter | RateLimiterOptions | undefined;
  fetch?: ((request: Request) => Promise<Response>) | undefined;
}

export type LinksError = components["schemas"]["ErrorEnvelope"];

/** The contract's paths; success bodies without the error envelope, which the client throws as LinksApiError. */
export type LinksClientPaths = WithoutErrorEnvelope<paths, LinksError>;

/**
 * A response whose envelope says `error: 1` (anything but 0), whatever its HTTP status; or an HTTP error status, or a
 * 2xx body, that is not the envelope (then `body.message` describes what came back). The message is the server's.
 */
export class LinksApiError extends Error {
  override readonly name = "LinksApiError";
  constructor(
    readonly status: number,
    readonly body: LinksError,
    readonly operation: string,
  ) {
    super(`${operation} failed (HTTP ${status}): ${body.message}`);
  }
}

/** Every call resolves with a success; errors are thrown as LinksApiError (RateLimitError for a refused wait). */
export type LinksClient = ThrowingClient<LinksClientPaths> & { rateLimiter: RateLimiter | undefined };

/** Whether the body is the success envelope: `error` is 0 (the string "0" in lists, a quirk of the contract). */
function isSuccessBody(body: unknown): boolean {
  const error = (body as { error?: unknown } | null | undefined)?.error;
  return error === 0 || error === "0";
}

/** Whether the body is the error envelope: an `error` flag that is not 0 and the server's message. */
function isErrorEnvelope(body: unknown): body is LinksError {
  const envelope = body as { error?: unknown; message?: unknown } | null | undefined;
  return envelope?.error !== undefined && !isSuccessBody(body) && typeof envelope.message === "string";
}

export function createLinksClient(options: LinksClientOptions): LinksClient {
  checkHeaderCredential("apiKey", options.apiKey);
  const baseFetch = options.fetch ?? ((request: Request) => fetch(request));
  const { rateLimit = true } = options;
  const limiter =
    rateLimit === false
      ? undefined
      : rateLimit instanceof RateLimiter
        ? rateLimit
        : new RateLimiter(rateLimit === true ? {} : rateLimit);
  const client = createClient<LinksClientPaths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: limiter ? (request) => limiter.schedule(() => baseFetch(request), request.signal) : baseFetch,
  });
  const throwing = throwingClient(client, {
    isSuccessBody,
    toError: (body, response, call) =>
      new LinksApiError(
        response.status,
        isErrorEnvelope(body) ? body : { error: 1, message: notTheEnvelope("links", "error flag 0", body, response) },
        call,
      ),
  });
  return Object.assign(throwing, { rateLimiter: limiter });
}
