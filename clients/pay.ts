// Typed client of the payment gateway: adds shop_id and a fresh nonce to every body, signs the exact bytes sent
// (pluggable signer), and surfaces a non-`success` envelope as PayApiError.
import createClient, { type Client } from "openapi-fetch";
import type { components, paths as ContractPaths } from "../generated/types/pay.js";
import { throwOnErrorEnvelope, type WithoutErrorEnvelope } from "./envelope.js";
import { memoryNonceSource, type NonceSource } from "./nonce.js";
import { hmacSha256Signer, type RequestSigner } from "./signer.js";

export type { components, operations, paths } from "../generated/types/pay.js";
export { fileNonceSource, memoryNonceSource, type NonceSource } from "./nonce.js";
export { hmacSha256Signer, type RequestSigner } from "./signer.js";

type ClientFields = "shop_id" | "nonce";

/** The contract's paths without the failure envelope in success bodies, which the client throws as PayApiError. */
type SuccessPaths = WithoutErrorEnvelope<ContractPaths, components["schemas"]["Error"]>;

/** The contract's paths, without shop_id and nonce in the bodies: the client adds them. */
export type PayClientPaths = {
  [P in keyof SuccessPaths]: {
    [M in keyof SuccessPaths[P]]: SuccessPaths[P][M] extends { requestBody: { content: { "application/json": infer B } } }
      ? Omit<SuccessPaths[P][M], "requestBody"> & { requestBody: { content: { "application/json": Omit<B, ClientFields> } } }
      : SuccessPaths[P][M];
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

/** The gateway answered with a `type` other than `success`. */
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

export type PayClient = Client<PayClientPaths>;

export function createPayClient(options: PayClientOptions): PayClient {
  const signer = options.signer ?? (options.apiKey !== undefined ? hmacSha256Signer(options.apiKey) : undefined);
  if (!signer) throw new TypeError("createPayClient needs an apiKey or a signer");
  const nonces = options.nonces ?? memoryNonceSource();
  // Bodies are serialised below, before openapi-fetch sees them, so that the signature covers the exact bytes sent.
  const client = createClient<PayClientPaths>({ baseUrl: options.baseUrl, fetch: options.fetch, bodySerializer: (body) => body as unknown as string });
  const post = client.POST as (path: string, init?: { body?: object; headers?: HeadersInit } & Record<string, unknown>) => Promise<unknown>;
  (client as { POST: unknown }).POST = async (path: string, init: { body?: object; headers?: HeadersInit } & Record<string, unknown> = {}) => {
    const body = JSON.stringify({ ...init.body, shop_id: options.shopId, nonce: await nonces.next() });
    const headers = new Headers(init.headers);
    headers.set("Content-Type", "application/json");
    headers.set("Authorization", await signer(new TextEncoder().encode(body)));
    return post(path, { ...init, body: body as unknown as object, headers });
  };
  return throwOnErrorEnvelope(client, (body, response, call) => {
    const { type, desc } = (body ?? {}) as Envelope;
    if (typeof type === "string" && type !== "success") throw new PayApiError(response.status, type, typeof desc === "string" ? desc : "", call);
  });
}
