// Typed client of the payment gateway: adds shop_id and a fresh nonce to every body, signs the exact bytes sent
// (pluggable signer), and surfaces a non-`success` envelope as PayApiError.
import createClient, { type Client } from "openapi-fetch";
import type { paths as ContractPaths } from "../generated/types/pay.js";
import { memoryNonceSource, type NonceSource } from "./nonce.js";
import { hmacSha256Signer, type RequestSigner } from "./signer.js";

export type { components, operations, paths } from "../generated/types/pay.js";
export { fileNonceSource, memoryNonceSource, type NonceSource } from "./nonce.js";
export { hmacSha256Signer, type RequestSigner } from "./signer.js";

type ClientFields = "shop_id" | "nonce";

/** The contract's paths, without shop_id and nonce in the bodies: the client adds them. */
export type PayClientPaths = {
  [P in keyof ContractPaths]: {
    [M in keyof ContractPaths[P]]: ContractPaths[P][M] extends { requestBody: { content: { "application/json": infer B } } }
      ? Omit<ContractPaths[P][M], "requestBody"> & { requestBody: { content: { "application/json": Omit<B, ClientFields> } } }
      : ContractPaths[P][M];
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

const SUCCESS_TYPE = /"type"\s*:\s*"success"/;

export type PayClient = Client<PayClientPaths>;

export function createPayClient(options: PayClientOptions): PayClient {
  const signer = options.signer ?? (options.apiKey !== undefined ? hmacSha256Signer(options.apiKey) : undefined);
  if (!signer) throw new TypeError("createPayClient needs an apiKey or a signer");
  const nonces = options.nonces ?? memoryNonceSource();
  const client = createClient<PayClientPaths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use({
    async onRequest({ request }) {
      const text = await request.text(); // the request is replaced below, so its body may be consumed
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const bytes = new TextEncoder().encode(JSON.stringify({ ...body, shop_id: options.shopId, nonce: await nonces.next() }));
      const headers = new Headers(request.headers);
      headers.set("Content-Type", "application/json");
      headers.set("Authorization", await signer(bytes));
      return new Request(request.url, { method: request.method, headers, body: bytes, signal: request.signal });
    },
    async onResponse({ request, response }) {
      if (!(response.headers.get("content-type") ?? "").includes("json")) return undefined;
      // Read the body once; parse it here only when it is not plainly a success (openapi-fetch parses it again).
      const text = await response.text();
      if (!SUCCESS_TYPE.test(text)) {
        const body = JSON.parse(text) as Envelope;
        if (typeof body.type === "string" && body.type !== "success") {
          throw new PayApiError(response.status, body.type, typeof body.desc === "string" ? body.desc : "", `${request.method} ${new URL(request.url).pathname}`);
        }
      }
      return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
  });
  return client;
}
