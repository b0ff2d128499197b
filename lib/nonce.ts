// Nonces for the pay API: integers, unique for every request and strictly increasing, also across concurrent
// calls (one source serialises them). Sharing them between processes needs a file: clients/node-nonce.ts (Node only).

export interface NonceSource {
  next(): Promise<number>;
}

/** Microseconds since the epoch, in whole numbers: increasing across restarts and far below 2^53. */
export function clockNonce(): number {
  return Date.now() * 1000;
}

// One counter for the whole process (or browser tab): two clients of one shop made in the same millisecond would
// otherwise both start from the clock and send the same nonce.
let lastInProcess = 0;

/** Strictly increasing nonces within this process, shared by every source it makes. */
export function memoryNonceSource(): NonceSource {
  return {
    next() {
      lastInProcess = Math.max(lastInProcess + 1, clockNonce());
      return Promise.resolve(lastInProcess);
    },
  };
}
