// Request signers for the pay API. Our source documents do not show the signature scheme; the default below follows
// the provider's public documentation: HMAC-SHA256 of the exact body bytes, keyed with the API key, hex-encoded,
// sent as `Authorization: Bearer <hex>`. Pass your own signer if your deployment differs.
//
// WebCrypto (crypto.subtle) rather than node:crypto, so that the same module runs in browsers, workers and Node.

/** Returns the whole Authorization header value for these exact body bytes. */
export type RequestSigner = (body: Uint8Array<ArrayBuffer>) => string | Promise<string>;

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function toHex(bytes: ArrayBuffer): string {
  let hex = "";
  for (const byte of new Uint8Array(bytes)) hex += HEX[byte];
  return hex;
}

export function hmacSha256Signer(apiKey: string): RequestSigner {
  // Importing the key is the slow part of a WebCrypto HMAC, so it happens once per signer, on first use.
  let key: Promise<CryptoKey> | undefined;
  return async (body) => {
    key ??= globalThis.crypto.subtle.importKey("raw", new TextEncoder().encode(apiKey), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return `Bearer ${toHex(await globalThis.crypto.subtle.sign("HMAC", await key, body))}`;
  };
}
