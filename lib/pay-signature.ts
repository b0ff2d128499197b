// Request signers for the pay API. Our source documents do not show the signature scheme; the default below follows
// the provider's public documentation: HMAC-SHA256 of the exact body bytes, keyed with the API key, hex-encoded,
// sent as `Authorization: Bearer <hex>`. Pass your own signer if your deployment differs.
//
// The signer is WebCrypto's (crypto.subtle) wherever the code runs: browsers, workers, Deno, Node. In Node the same
// HMAC comes from node:crypto when the runtime hands it out without an import (process.getBuiltinModule, Node
// >= 20.16), so that browser bundles never see a Node module: it is synchronous and measured several times faster
// per call than crypto.subtle.sign, which takes a trip through Node's thread pool (npm run bench:clients).

/** Returns the whole Authorization header value for these exact body bytes. */
export type RequestSigner = (body: Uint8Array<ArrayBuffer>) => string | Promise<string>;

interface NodeHmac {
  createHmac(algorithm: "sha256", key: string): { update(data: Uint8Array): { digest(encoding: "hex"): string } };
}

const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as NodeHmac | undefined;

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function toHex(bytes: ArrayBuffer): string {
  let hex = "";
  for (const byte of new Uint8Array(bytes)) hex += HEX[byte];
  return hex;
}

/** The default signer: node:crypto's HMAC in Node, WebCrypto's everywhere else (the same bytes either way). */
export function hmacSha256Signer(apiKey: string): RequestSigner {
  if (nodeCrypto) return (body) => `Bearer ${nodeCrypto.createHmac("sha256", apiKey).update(body).digest("hex")}`;
  return webCryptoHmacSha256Signer(apiKey);
}

/** The same signer on WebCrypto alone (what browsers run). */
export function webCryptoHmacSha256Signer(apiKey: string): RequestSigner {
  // Importing the key is the slow part of a WebCrypto HMAC, so it happens once per signer, on first use.
  let key: Promise<CryptoKey> | undefined;
  return async (body) => {
    key ??= globalThis.crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(apiKey),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    return `Bearer ${toHex(await globalThis.crypto.subtle.sign("HMAC", await key, body))}`;
  };
}
