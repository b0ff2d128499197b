// Nonces shared by several Node processes that use one pay shop: the last value lives in a file, updated under a
// lock. Node-only (node:fs), so it has its own entry point: @platform/contracts/pay/node-nonce.
import { open, readFile, rm, stat, writeFile, rename } from "node:fs/promises";
import { clockNonce, type NonceSource } from "../lib/nonce.js";

export type { NonceSource } from "../lib/nonce.js";

export interface FileNonceSourceOptions {
  /** A lock older than this is taken to be left behind by a crashed process. */
  staleLockMs?: number | undefined;
  lockTimeoutMs?: number | undefined;
}

/** Strictly increasing nonces shared by every process that uses the same file. */
export function fileNonceSource(path: string, options: FileNonceSourceOptions = {}): NonceSource {
  const lockPath = `${path}.lock`;
  const staleLockMs = options.staleLockMs ?? 10_000;
  const lockTimeoutMs = options.lockTimeoutMs ?? 10_000;
  let queue: Promise<unknown> = Promise.resolve();

  async function lock(): Promise<void> {
    const deadline = Date.now() + lockTimeoutMs;
    for (;;) {
      try {
        const handle = await open(lockPath, "wx");
        await handle.close();
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const age = await stat(lockPath).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (age > staleLockMs) await rm(lockPath, { force: true });
        if (Date.now() > deadline)
          throw new Error(`could not lock the nonce file ${path} within ${lockTimeoutMs} ms`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 5));
      }
    }
  }

  async function take(): Promise<number> {
    await lock();
    try {
      const last = Number((await readFile(path, "utf8").catch(() => "0")).trim()) || 0;
      const next = Math.max(last + 1, clockNonce());
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, String(next));
      await rename(temporary, path); // atomic: a reader never sees a half-written number
      return next;
    } finally {
      await rm(lockPath, { force: true });
    }
  }

  return {
    next() {
      // Calls within this process wait for each other, so the lock is only contended between processes.
      const result = queue.then(take, take);
      queue = result.catch(() => undefined);
      return result;
    },
  };
}
