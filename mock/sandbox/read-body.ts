// Reading a node:http request body with a size cap, shared by the node adapter and the identity server.
import type { IncomingMessage } from "node:http";

/**
 * Reads the whole body, or returns undefined once it exceeds `limit` bytes. The rest of an oversized body is
 * discarded rather than the connection destroyed, so the caller can still answer with a clear refusal.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    req.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      return undefined;
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
