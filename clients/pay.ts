// Typed client of the payment gateway: adds shop_id and a fresh nonce to every body, signs the exact bytes sent
// (pluggable signer), and throws a non-`success` envelope or an HTTP error status as PayApiError.
import createClient from "openapi-fetch";
import type { components, paths as ContractPaths } from "../generated/types/pay.js";
import { describeBody, type ThrowingClient, throwOnErrorEnvelope, type WithoutErrorEnvelope } from "./envelope.js";
import { memoryNonceSource, type NonceSource } from "../lib/nonce.js";
import { hmacSha256Signer, type RequestSigner } from "../lib/pay-signature.js";

export type { components, operations, paths } from "../generated/types/pay.js";
// fileNonceSource (nonces shared between processes through a file) is Node-only: @platform/contracts/pay/node-nonce.
export { memoryNonceSource, type NonceSource } from "../lib/nonce.js";
export { hmacSha256Signer, type RequestSigner } from "../lib/pay-signature.js";

type ClientFields = "shop_id" | "nonce";

/** The contract's paths without the failure envelope in success bodies, which the client throws as PayApiError. */
type SuccessPaths = WithoutErrorEnvelope<ContractPaths, components["schemas"]["Error"]>;

type ClientBody<O> = O extends { requestBody: { content: { "application/json": infer B } } }
  ? { content: { "application/json": Omit<B, ClientFields> } }
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
  apiKey?: string;
  /** Computes the Authorization header from the exact body bytes; defaults to hmacSha256Signer(apiKey). */
  signer?: RequestSigner;
  /** Where nonces come from; use fileNonceSource(path) when several processes share a shop. */
  nonces?: NonceSource;
  fetch?: (request: Request) => Promise<Response>;
}

interface Envelope {
  type?: unknown;
  desc?: unknown;
  data?: unknown;
}

/** The gateway answered with a `type` other than `success`, or with an HTTP error status. */
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

/** A Request that keeps the signed body text, so that the default transport can send it as it is. */
class SignedRequest extends Request {
  readonly signedBody: BodyInit | null | undefined;
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init);
    this.signedBody = init?.body;
  }
}

// fetch(url, init) with the body text: undici sends a Request object's body as a stream, ~30% slower per call.
function sendSigned(request: Request): Promise<Response> {
  if (!(request instanceof SignedRequest)) return fetch(request);
  return fetch(request.url, { method: request.method, headers: request.headers, body: request.signedBody, signal: request.signal, redirect: request.redirect });
}

export function createPayClient(options: PayClientOptions): PayClient {
  const signer = options.signer ?? (options.apiKey !== undefined ? hmacSha256Signer(options.apiKey) : undefined);
  if (!signer) throw new TypeError("createPayClient needs an apiKey or a signer");
  const nonces = options.nonces ?? memoryNonceSource();
  // Bodies are serialised below, before openapi-fetch sees them, so that the signature covers the exact bytes sent.
  const client = createClient<PayClientPaths>({
    baseUrl: options.baseUrl,
    bodySerializer: (body) => body as unknown as string,
    ...(options.fetch ? { fetch: options.fetch } : { Request: SignedRequest, fetch: sendSigned }),
  });
  const post = client.POST as (path: string, init?: { body?: object; headers?: HeadersInit } & Record<string, unknown>) => Promise<unknown>;
  (client as { POST: unknown }).POST = async (path: string, init: { body?: object; headers?: HeadersInit } & Record<string, unknown> = {}) => {
    const body = JSON.stringify({ ...init.body, shop_id: options.shopId, nonce: await nonces.next() });
    const headers = new Headers(init.headers);
    headers.set("Content-Type", "application/json");
    headers.set("Authorization", await signer(new TextEncoder().encode(body)));
    return post(path, { ...init, body: body as unknown as object, headers });
  };
  return throwOnErrorEnvelope(client, (body, response, call) => {
    const { type, desc } = (body && typeof body === "object" ? body : {}) as Envelope;
    if (type !== undefined && type !== "success") throw new PayApiError(response.status, String(type), typeof desc === "string" ? desc : "", call);
    if (response.status >= 400) throw new PayApiError(response.status, "error", describeBody(body), call);
  });
}
