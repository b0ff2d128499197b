// Reading a node:http request body with a size cap, shared by the node adapter and the identity server.
import type { IncomingMessage } from "node:http";

/** The client closed the connection (or the sandbox cut it off) before the whole body arrived. */
export const ABORTED = Symbol("aborted");

/**
 * Reads the whole body, or returns undefined once it exceeds `limit` bytes, or ABORTED when the body ends early.
 * The rest of an oversized body is discarded rather than the connection destroyed, so the caller can still answer
 * with a clear refusal.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined | typeof ABORTED> {
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    req.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        req.resume();
        return undefined;
      }
      chunks.push(chunk);
    }
  } catch {
    return ABORTED;
  }
  if (!req.complete) return ABORTED;
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * The one log line of an upload that did not arrive whole (not a stack trace: it is the client's doing). The path
 * without its query, which may carry codes or tokens.
 */
export function logAborted(api: string, req: IncomingMessage): void {
  console.error(
    `sandbox: ${api}: ${req.method} ${(req.url ?? "/").split("?")[0]}: the body did not arrive whole (the client broke off, or stalled past the timeout)`,
  );
}
