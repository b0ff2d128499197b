// Nonces for the pay API: integers, unique for every request and strictly increasing, also across concurrent
// calls (one source serialises them). Sharing them between processes needs a file: clients/node-nonce.ts (Node only).

export interface NonceSource {
  next(): Promise<number>;
}

/** Microseconds since the epoch, in whole numbers: increasing across restarts and far below 2^53. */
export function clockNonce(): number {
  return Date.now() * 1000;
}

/** Strictly increasing nonces within this process. */
export function memoryNonceSource(): NonceSource {
  let last = 0;
  return {
    next() {
      last = Math.max(last + 1, clockNonce());
      return Promise.resolve(last);
    },
  };
}
