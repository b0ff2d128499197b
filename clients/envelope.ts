// One error channel for the openapi-fetch clients: every error (an HTTP error status, or an error envelope in a 2xx
// body) is thrown, so a call that returns has succeeded. The check runs after openapi-fetch has parsed the body, so
// the body is read and parsed once (a middleware would have to read it a second time), and the clients' types say
// so: their calls resolve with the success branch only (`data` is there, `error` never is).
import type { Client, FetchResponse, MaybeOptionalInit } from "openapi-fetch";

const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

type HttpMethod = Lowercase<(typeof METHODS)[number]>;
type PathsWith<Paths, M extends HttpMethod> = { [P in keyof Paths]: Paths[P] extends { [K in M]: unknown } ? P : never }[keyof Paths];
type RequiredKeys<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];
// As openapi-fetch's own: the init argument is optional when nothing in it is required.
type InitArgument<Init> = (RequiredKeys<Init> extends undefined ? never : RequiredKeys<Init>) extends never ? [(Init & Record<string, unknown>)?] : [Init & Record<string, unknown>];

/** One method of a ThrowingClient: openapi-fetch's, resolving with the success branch only. */
export type SuccessMethod<Paths extends Record<string, any>, M extends HttpMethod> = <P extends PathsWith<Paths, M>, Init extends MaybeOptionalInit<Paths[P], M>>(
  url: P,
  ...init: InitArgument<Init>
) => Promise<Extract<FetchResponse<Paths[P][M], Init, `${string}/${string}`>, { data: unknown }>>;

/** openapi-fetch's Client whose calls throw every error and resolve with successes only. */
export type ThrowingClient<Paths extends Record<string, any>> = Omit<Client<Paths>, (typeof METHODS)[number]> & {
  [M in (typeof METHODS)[number]]: SuccessMethod<Paths, Lowercase<M>>;
};

interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * Calls `inspect` with the parsed body (data or error) of every response and a `METHOD /path` label of the call
 * (never the query string, which may carry secrets); `inspect` throws the API's own error for an error status or
 * envelope. A response that is still not a success afterwards (e.g. a 3xx) is thrown as a plain Error: fail closed.
 */
export function throwOnErrorEnvelope<Paths extends Record<string, any>>(client: Client<Paths>, inspect: (body: unknown, response: Response, call: string) => void): ThrowingClient<Paths> {
  for (const method of METHODS) {
    const send = client[method] as (...args: unknown[]) => Promise<FetchResult>;
    (client as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const result = await send(...args);
      const path = result.response.url ? new URL(result.response.url).pathname : String(args[0]);
      const call = `${method} ${path}`;
      inspect(result.data ?? result.error, result.response, call);
      if (!result.response.ok) throw new Error(`${call} failed (HTTP ${result.response.status})`);
      return result;
    };
  }
  return client as unknown as ThrowingClient<Paths>;
}

/** A short text for an error body that is not the API's envelope (a proxy's HTML page, plain text, nothing). */
export function describeBody(body: unknown): string {
  if (body === undefined || body === "") return "(no body)";
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
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
