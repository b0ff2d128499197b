// Typed client of the seller catalog API: the x-seller-api-key header, an Idempotency-Key on every write (kept
// across the client's own retries of that call), every error status thrown as CatalogApiError, and the 403 that
// names the missing scope as CatalogScopeError.
import createClient from "openapi-fetch";
import type { paths as ContractPaths } from "../generated/types/catalog.js";
import { checkHeaderCredential } from "./credentials.js";
import { describeBody, type ThrowingClient, throwingClient } from "./envelope.js";

export type { components, operations, paths, webhooks } from "../generated/types/catalog.js";

/** The contract's paths, with the Idempotency-Key header made optional: the client supplies one when you don't. */
export type CatalogClientPaths = {
  [P in keyof ContractPaths]: {
    [M in keyof ContractPaths[P]]: ContractPaths[P][M] extends { parameters: { header: infer H } }
      ? Omit<ContractPaths[P][M], "parameters"> & {
          parameters: Omit<ContractPaths[P][M]["parameters"], "header"> & {
            header?: Omit<H, "Idempotency-Key"> & { "Idempotency-Key"?: string };
          };
        }
      : ContractPaths[P][M];
  };
};

export interface CatalogClientOptions {
  /** e.g. http://127.0.0.1:4012 (mock) or your deployment's {api_url}. */
  baseUrl: string;
  apiKey: string;
  /** How often a write is retried after a network error or a 5xx, with the same Idempotency-Key (default 2). */
  retries?: number | undefined;
  retryDelayMs?: number | undefined;
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Makes Idempotency-Keys; defaults to random UUIDs. */
  idempotencyKey?: (() => string) | undefined;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// Scopes as the seeds name them (products:read, products:write); other names are not shown. Anything looser reads
// a CDN page's `display:none` or an `ip:blocked` as a scope.
const SCOPE_PATTERN = /\b[a-z][a-z_]*:(?:read|write)\b/;

/** A response with an error status (4xx, or 5xx after the retries). `body` is the parsed JSON body, or its text. */
export class CatalogApiError extends Error {
  override readonly name: string = "CatalogApiError";
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly operation: string,
    message = `${operation} failed (HTTP ${status}): ${errorMessageOf(body)}`,
  ) {
    super(message);
  }
}

/** HTTP 403: the API key lacks a scope. `missingScope` is read from the body, which names it. */
export class CatalogScopeError extends CatalogApiError {
  override readonly name = "CatalogScopeError";
  constructor(
    readonly missingScope: string | undefined,
    body: unknown,
    operation: string,
  ) {
    const reason = missingScope
      ? `the API key lacks the scope ${missingScope}`
      : `the response names no missing scope: ${errorMessageOf(body)}`;
    super(403, body, operation, `${operation} was refused (HTTP 403): ${reason}`);
  }
}

function missingScopeOf(body: unknown): string | undefined {
  const named = (body as { missing_scope?: unknown } | null)?.missing_scope;
  if (typeof named === "string") return named;
  return (typeof body === "string" ? body : JSON.stringify(body ?? "")).match(SCOPE_PATTERN)?.[0];
}

function errorMessageOf(body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === "string" ? error : describeBody(body);
}

/** Waits before a retry; an aborted call stops waiting (and is not retried) with its signal's reason. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal.addEventListener("abort", abort, { once: true });
  });
}

/** Every call resolves with a success; errors are thrown as CatalogApiError (CatalogScopeError for a 403). */
export type CatalogClient = ThrowingClient<CatalogClientPaths>;

export function createCatalogClient(options: CatalogClientOptions): CatalogClient {
  checkHeaderCredential("apiKey", options.apiKey);
  const baseFetch = options.fetch ?? ((request: Request) => fetch(request));
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const newKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());

  // One logical call = one Idempotency-Key, however many times the request is sent.
  async function sendWithRetries(request: Request): Promise<Response> {
    if (!WRITE_METHODS.has(request.method)) return baseFetch(request);
    if (!request.headers.has("Idempotency-Key")) request.headers.set("Idempotency-Key", newKey());
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await baseFetch(request.clone());
        if (response.status < 500 || attempt >= retries) return response;
      } catch (error) {
        if (attempt >= retries || request.signal.aborted) throw error;
      }
      await delay(retryDelayMs * 2 ** attempt, request.signal);
    }
  }

  const client = createClient<CatalogClientPaths>({
    baseUrl: options.baseUrl,
    headers: { "x-seller-api-key": options.apiKey },
    fetch: sendWithRetries,
  });
  return throwingClient(client, {
    toError: (body, response, call) =>
      response.status === 403
        ? new CatalogScopeError(missingScopeOf(body), body, call)
        : new CatalogApiError(response.status, body, call),
  });
}
