// Request signers for the pay API. Our source documents do not show the signature scheme; the default below follows
// the provider's public documentation: HMAC-SHA256 of the exact body bytes, keyed with the API key, hex-encoded,
// sent as `Authorization: Bearer <hex>`. Pass your own signer if your deployment differs.

/** Returns the whole Authorization header value for these exact body bytes. */
export type RequestSigner = (body: Uint8Array<ArrayBuffer>) => string | Promise<string>;

export function hmacSha256Signer(apiKey: string): RequestSigner {
  const key = globalThis.crypto.subtle.importKey("raw", new TextEncoder().encode(apiKey), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return async (body) => {
    const signature = await globalThis.crypto.subtle.sign("HMAC", await key, body);
    return `Bearer ${[...new Uint8Array(signature)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
  };
}
