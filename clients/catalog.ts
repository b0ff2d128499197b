// Typed client of the seller catalog API: the x-seller-api-key header, an Idempotency-Key on every write (kept
// across the client's own retries of that call), every error status thrown as CatalogApiError, and the 403 that
// names the missing scope as CatalogScopeError.
import createClient from "openapi-fetch";
import type { paths as ContractPaths } from "../generated/types/catalog.js";
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
  retries?: number;
  retryDelayMs?: number;
  fetch?: (request: Request) => Promise<Response>;
  /** Makes Idempotency-Keys; defaults to random UUIDs. */
  idempotencyKey?: () => string;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const SCOPE_PATTERN = /\b[a-z][a-z_]*:(?:read|write|[a-z_]+)\b/;

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
    super(403, body, operation, `${operation} was refused (HTTP 403): the API key lacks the scope ${missingScope ?? "(not named in the response)"}`);
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

/** Every call resolves with a success; errors are thrown as CatalogApiError (CatalogScopeError for a 403). */
export type CatalogClient = ThrowingClient<CatalogClientPaths>;

export function createCatalogClient(options: CatalogClientOptions): CatalogClient {
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
        if (attempt >= retries) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** attempt));
    }
  }

  const client = createClient<CatalogClientPaths>({
    baseUrl: options.baseUrl,
    headers: { "x-seller-api-key": options.apiKey },
    fetch: sendWithRetries,
  });
  return throwingClient(client, {
    envelopeInSuccessBodies: false,
    isErrorEnvelope: () => false,
    toError: (body, response, call) => (response.status === 403 ? new CatalogScopeError(missingScopeOf(body), body, call) : new CatalogApiError(response.status, body, call)),
  });
}
