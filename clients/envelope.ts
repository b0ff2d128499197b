// Turns an error envelope into a thrown, typed error after openapi-fetch has parsed the body, so that the body is
// read and parsed once. (A middleware would have to read the body a second time.)
import type { Client } from "openapi-fetch";

const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * Calls `inspect` with the parsed body (data or error) of every response and a `METHOD /path` label of the call
 * (never the query string, which may carry secrets); `inspect` throws to fail the call.
 */
export function throwOnErrorEnvelope<C extends Client<any>>(client: C, inspect: (body: unknown, response: Response, call: string) => void): C {
  for (const method of METHODS) {
    const send = client[method] as (...args: unknown[]) => Promise<FetchResult>;
    (client as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const result = await send(...args);
      const path = result.response.url ? new URL(result.response.url).pathname : String(args[0]);
      inspect(result.data ?? result.error, result.response, `${method} ${path}`);
      return result;
    };
  }
  return client;
}

/** `T` without the member that is exactly `E` (a success envelope that merely fits `E`'s looser shape stays). */
type WithoutExactly<T, E> = T extends unknown ? ([T] extends [E] ? ([E] extends [T] ? never : T) : T) : never;

type SuccessBodies<R, E> = {
  [S in keyof R]: S extends "default" ? R[S] : R[S] extends { content: infer C } ? Omit<R[S], "content"> & { content: { [M in keyof C]: WithoutExactly<C[M], E> } } : R[S];
};

/**
 * The contract's paths with the error envelope `E` taken out of every non-default response body. The contract lets
 * any status carry the envelope, so the generated types make a raw caller check it; the clients throw it instead.
 */
export type WithoutErrorEnvelope<Paths, E> = {
  [P in keyof Paths]: {
    [M in keyof Paths[P]]: Paths[P][M] extends { responses: infer R } ? Omit<Paths[P][M], "responses"> & { responses: SuccessBodies<R, E> } : Paths[P][M];
  };
};
