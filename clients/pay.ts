// Typed client of the payment gateway: an openapi-fetch middleware adds shop_id and a fresh nonce to every body and
// signs the exact bytes sent (pluggable signer); another throws a non-`success` envelope or an HTTP error status as
// PayApiError.
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths as ContractPaths } from "../generated/types/pay.js";
import { notTheEnvelope, type ThrowingClient, throwingClient, type WithoutErrorEnvelope } from "./envelope.js";
import { memoryNonceSource, type NonceSource } from "../lib/nonce.js";
import { hmacSha256Signer, type RequestSigner } from "../lib/pay-signature.js";

export type { components, operations, paths } from "../generated/types/pay.js";
// fileNonceSource (nonces shared between processes through a file) is Node-only: @platform/contracts/pay/node-nonce.
export { memoryNonceSource, type NonceSource } from "../lib/nonce.js";
export { hmacSha256Signer, type RequestSigner } from "../lib/pay-signature.js";

type ClientFields = "shop_id" | "nonce";

/** The contract's paths without the failure envelope in success bodies, which the client throws as PayApiError. */
type SuccessPaths = WithoutErrorEnvelope<ContractPaths, components["schemas"]["ErrorEnvelope"]>;

// A body left with no field of its own is `Record<string, never>`, not `{}`, which would take any object.
type OwnFields<B> = [Exclude<keyof B, ClientFields>] extends [never] ? Record<string, never> : Omit<B, ClientFields>;

type ClientBody<O> = O extends { requestBody: { content: { "application/json": infer B } } }
  ? { content: { "application/json": OwnFields<B> } }
  : never;

/**
 * The contract's paths, without shop_id and nonce in the bodies: the client adds them. An operation whose body has
 * no required field of its own (getBalance, listShops, listOrders, ...) needs no body argument at all.
 */
export type PayClientPaths = {
  [P in keyof SuccessPaths]: {
    [M in keyof SuccessPaths[P]]: [ClientBody<SuccessPaths[P][M]>] extends [never]
      ? SuccessPaths[P][M]
      : Omit<SuccessPaths[P][M], "requestBody"> &
          (Record<string, never> extends ClientBody<SuccessPaths[P][M]>["content"]["application/json"]
            ? { requestBody?: ClientBody<SuccessPaths[P][M]> }
            : { requestBody: ClientBody<SuccessPaths[P][M]> });
  };
};

export interface PayClientOptions {
  /** e.g. http://127.0.0.1:4013 (mock) or your deployment's {pay_url}. */
  baseUrl: string;
  shopId: string;
  /** The signing secret. Used by the default signer only; never sent. */
  apiKey?: string | undefined;
  /** Computes the Authorization header from the exact body bytes; defaults to hmacSha256Signer(apiKey). */
  signer?: RequestSigner | undefined;
  /** Where nonces come from; use fileNonceSource(path) when several processes share a shop. */
  nonces?: NonceSource | undefined;
  fetch?: ((request: Request) => Promise<Response>) | undefined;
}

interface Envelope {
  type?: unknown;
  desc?: unknown;
  data?: unknown;
}

/** The gateway answered with a `type` other than `success`, without the envelope, or with an HTTP error status. */
export class PayApiError extends Error {
  override readonly name = "PayApiError";
  constructor(
    readonly status: number,
    readonly type: string,
    readonly desc: string,
    readonly operation: string,
  ) {
    super(`${operation} failed (HTTP ${status}, type ${type}): ${desc || "(no description)"}`);
  }
}

/** Every call resolves with a success; errors are thrown as PayApiError. */
export type PayClient = ThrowingClient<PayClientPaths>;

/**
 * A pay request, built twice per call. openapi-fetch builds it with the caller's own fields as the body (the client's
 * body serializer hands them through), kept here unserialised; the signing middleware builds it again with the signed
 * body text. openapi-fetch takes a middleware's request only as an instance of the client's Request class, hence one
 * class for both. The signed one keeps the init it was made from, so that the default transport sends the body text
 * as it is: undici sends a Request object's body as a stream, measured about 30% slower per call.
 */
class PayRequest extends Request {
  readonly fields: object | undefined;
  readonly signedInit: (RequestInit & { body: string }) | undefined;
  readonly callerSignal: AbortSignal | null | undefined;
  constructor(input: RequestInfo | URL, init: RequestInit = {}) {
    const signed = typeof init.body === "string";
    super(input, signed ? init : { ...init, body: undefined });
    this.fields = signed ? undefined : ((init.body ?? undefined) as object | undefined);
    this.signedInit = signed ? (init as RequestInit & { body: string }) : undefined;
    this.callerSignal = init.signal;
  }

  // openapi-fetch takes a middleware's result only if it is an instance of the client's Request class, and a
  // caller's own middleware may return `new Request(request, ...)` (openapi-fetch's documented pattern): take it.
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Request;
  }
}

/** Whether the pay client built this request (hasInstance above takes any Request). */
function isPayRequest(request: Request): request is PayRequest {
  return Object.getPrototypeOf(request) === PayRequest.prototype;
}

function sendSigned(request: Request): Promise<Response> {
  return isPayRequest(request) && request.signedInit ? fetch(request.url, request.signedInit) : fetch(request);
}

/** Adds shop_id and a fresh nonce to the caller's fields and signs the exact bytes sent (openapi-fetch middleware). */
function signingMiddleware(shopId: string, nonces: NonceSource, signer: RequestSigner): Middleware {
  const encoder = new TextEncoder();
  return {
    async onRequest({ request }) {
      if (!isPayRequest(request) || request.signedInit)
        throw new TypeError("a pay request must be built by the pay client (its Request and body serializer)");
      const body = JSON.stringify({ ...request.fields, shop_id: shopId, nonce: await nonces.next() });
      const headers = request.headers;
      headers.set("Content-Type", "application/json");
      headers.set("Authorization", await signer(encoder.encode(body)));
      return new PayRequest(request.url, {
        method: request.method,
        headers,
        body,
        redirect: request.redirect,
        signal: request.callerSignal ?? null,
      });
    },
  };
}

export function createPayClient(options: PayClientOptions): PayClient {
  const signer = options.signer ?? (options.apiKey !== undefined ? hmacSha256Signer(options.apiKey) : undefined);
  if (!signer) throw new TypeError("createPayClient needs an apiKey or a signer");
  const client = createClient<PayClientPaths>({
    baseUrl: options.baseUrl,
    Request: PayRequest,
    bodySerializer: (fields: unknown) => fields, // serialised once by the signing middleware, with shop_id and nonce
    fetch: options.fetch ?? sendSigned,
  });
  client.use(signingMiddleware(options.shopId, options.nonces ?? memoryNonceSource(), signer));
  return throwingClient(client, {
    isSuccessBody: (body) => typeOf(body) === "success",
    toError: (body, response, call) => {
      const type = typeOf(body);
      if (type !== undefined && type !== "success")
        return new PayApiError(
          response.status,
          typeof type === "string" ? type : JSON.stringify(type),
          descOf(body),
          call,
        );
      return new PayApiError(response.status, "error", notTheEnvelope("pay", 'type "success"', body, response), call);
    },
  });
}

function typeOf(body: unknown): unknown {
  return (body as Envelope | null | undefined)?.type;
}

function descOf(body: unknown): string {
  const desc = (body as Envelope | null | undefined)?.desc;
  return typeof desc === "string" ? desc : "";
}
