// Request signers for the pay API. Our source documents do not show the signature scheme; the default below follows
// the provider's public documentation: HMAC-SHA256 of the exact body bytes, keyed with the API key, hex-encoded,
// sent as `Authorization: Bearer <hex>`. Pass your own signer if your deployment differs.
import { createHmac } from "node:crypto";

/** Returns the whole Authorization header value for these exact body bytes. */
export type RequestSigner = (body: Uint8Array<ArrayBuffer>) => string | Promise<string>;

export function hmacSha256Signer(apiKey: string): RequestSigner {
  // node:crypto rather than WebCrypto: the synchronous HMAC is ~20x faster per call than crypto.subtle.sign.
  return (body) => `Bearer ${createHmac("sha256", apiKey).update(body).digest("hex")}`;
}
