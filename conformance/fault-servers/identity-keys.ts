// The RS256 key pair that signs the fault providers' id_tokens: one for every provider of a process, which all name
// it fault-server-rs256. An RSA key pair takes about 0.15 CPU-seconds to generate, and the self-tests start dozens of
// providers.
import { exportJWK, generateKeyPair, type JWK } from "jose";

export interface FaultProviderKeys {
  privateKey: CryptoKey;
  publicJwk: JWK & { kid: string };
}

let keys: Promise<FaultProviderKeys> | undefined;

export function faultProviderKeys(): Promise<FaultProviderKeys> {
  keys ??= generateKeyPair("RS256").then(async ({ privateKey, publicKey }) => ({
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid: "fault-server-rs256", use: "sig", alg: "RS256" },
  }));
  return keys;
}

let otherPublicJwk: Promise<JWK> | undefined;

/**
 * The public half of a second RS256 key, made once per process: the duplicate-kids fault lists it under the signing
 * key's kid. Made per request, its 0.15 CPU-seconds, times every JWKS read of a busy test run, let a read time out.
 */
export function otherPublicKey(): Promise<JWK> {
  otherPublicJwk ??= generateKeyPair("RS256").then(({ publicKey }) => exportJWK(publicKey));
  return otherPublicJwk;
}
