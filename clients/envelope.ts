// One error channel for the openapi-fetch clients: every error (an HTTP error status, or an error envelope in a 2xx
// body) is thrown by an openapi-fetch `onResponse` middleware, so a call that returns has succeeded, and the clients'
// types say so: their calls resolve with the success branch only (`data` is there, `error` never is).
import type { Client, FetchResponse, MaybeOptionalInit, Middleware } from "openapi-fetch";

type MethodName = "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";
type HttpMethod = Lowercase<MethodName>;
type PathsWith<Paths, M extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof Paths];
type RequiredKeys<T> = { [K in keyof T]-?: Pick<T, K> extends Required<Pick<T, K>> ? K : never }[keyof T];
// As openapi-fetch's own, the init argument is optional when nothing in it is required; unlike openapi-fetch's, it is
// the operation's init type itself, not a type inferred from the argument nor one with an index signature, so that
// TypeScript checks the object literal for excess properties: a misspelt field is a type error.
type InitArgument<Init> = (RequiredKeys<Init> extends undefined ? never : RequiredKeys<Init>) extends never
  ? [Init?]
  : [Init];

/** Paths as openapi-typescript generates them: an object of operations (or never) per method, for every path. */
export type OperationPaths<Paths> = { [P in keyof Paths]: { [M in HttpMethod]?: object } };

/** One method of a ThrowingClient: openapi-fetch's, resolving with the (JSON) success branch only. */
export type SuccessMethod<Paths extends OperationPaths<Paths>, M extends HttpMethod> = <P extends PathsWith<Paths, M>>(
  url: P,
  ...init: InitArgument<MaybeOptionalInit<Paths[P], M>>
) => Promise<
  Extract<
    FetchResponse<NonNullable<Paths[P][M]>, MaybeOptionalInit<Paths[P], M>, `${string}/${string}`>,
    { data: unknown }
  >
>;

/** openapi-fetch's Client whose calls throw every error and resolve with successes only. */
export type ThrowingClient<Paths extends OperationPaths<Paths>> = Omit<Client<Paths>, MethodName> & {
  [M in MethodName]: SuccessMethod<Paths, Lowercase<M>>;
};

/** How an API signals errors; `errorMiddleware` turns it into thrown errors. */
export interface ErrorChannel {
  /**
   * For an API that signals errors in 2xx bodies too (links, pay): whether a 2xx body is the success envelope. Every
   * other 2xx body (the error envelope, a body without the envelope's flag, text, nothing) is thrown: fail closed.
   * Without it (catalog), any 2xx is a success and its body is left unread.
   */
  isSuccessBody?: (body: unknown) => boolean;
  /** The API's own error for an HTTP error status or a 2xx body that is not a success; `call` is `METHOD /path`. */
  toError(body: unknown, response: Response, call: string): Error;
}

/** The parsed JSON body; text that is not JSON as it is; undefined for no body. */
function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `METHOD /path` of a call: never the query string, which may carry secrets. */
function callOf(request: Request): string {
  return `${request.method} ${new URL(request.url).pathname}`;
}

/**
 * A response whose body the middleware has read: a view of the original (status, headers, url) that answers the body
 * readers from the text already read, and `json()` with the value already parsed. `new Response(text, response)`
 * would do too, but undici then copies the headers and builds and drains a stream again, measured at about 50 µs a
 * call: more than everything else the clients add (npm run bench:clients).
 */
class ReadResponse extends Response {
  readonly #original: Response;
  readonly #text: string;
  #parsed: unknown;
  constructor(original: Response, text: string, parsed: unknown) {
    super(null, { status: original.status, statusText: original.statusText });
    this.#original = original;
    this.#text = text;
    this.#parsed = parsed;
  }
  override get headers(): Headers {
    return this.#original.headers;
  }
  override get url(): string {
    return this.#original.url;
  }
  override get redirected(): boolean {
    return this.#original.redirected;
  }
  override get type(): ResponseType {
    return this.#original.type;
  }
  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#text === "" ? null : this.#copy().body;
  }
  override text(): Promise<string> {
    return Promise.resolve(this.#text);
  }
  override json(): Promise<unknown> {
    // The parsed value is handed out once (later calls get their own copy, as from a real response); parseBody keeps
    // text that is not JSON as it is, and then json() must fail as a real response's would.
    const parsed = this.#parsed;
    this.#parsed = undefined;
    return typeof parsed === "string" || parsed === undefined ? this.#copy().json() : Promise.resolve(parsed);
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#copy().arrayBuffer();
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#copy().bytes();
  }
  override blob(): Promise<Blob> {
    return this.#copy().blob();
  }
  override formData(): Promise<FormData> {
    return this.#copy().formData();
  }
  override clone(): Response {
    return new ReadResponse(this.#original, this.#text, undefined);
  }
  /** An ordinary Response with the same text, for the readers that are not worth a shortcut. */
  #copy(): Response {
    return new Response(this.#text === "" ? null : this.#text, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
  }
}

/**
 * The middleware that throws `channel`'s errors. A response whose body it had to read is handed on as a ReadResponse,
 * which openapi-fetch then parses; a response that is still not a success (e.g. a 3xx that was not followed) is
 * thrown as a plain Error: fail closed.
 */
export function errorMiddleware(channel: ErrorChannel): Middleware {
  return {
    async onResponse({ request, response }) {
      if (response.ok && !channel.isSuccessBody) return undefined;
      const text = await response.text();
      const body = parseBody(text);
      if (response.status >= 400 || (response.ok && !channel.isSuccessBody?.(body)))
        throw channel.toError(body, response, callOf(request));
      if (!response.ok) throw new Error(`${callOf(request)} failed (HTTP ${response.status})`);
      return new ReadResponse(response, text, body);
    },
    onError({ request, error }) {
      return namedNetworkError(callOf(request), request.url, error);
    },
  };
}

/**
 * fetch's network failure is a bare "fetch failed" (its reason in `cause`): the same failure naming the call and where
 * it went, with fetch's error as the cause. Undefined for anything else (an abort, the limiter's RateLimitError),
 * which is thrown as it is.
 */
export function namedNetworkError(call: string, url: string, error: unknown): TypeError | undefined {
  if (!(error instanceof TypeError)) return undefined;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return new TypeError(`${call}: ${error.message} (${url})${cause}`, { cause: error });
}

/** openapi-fetch's client, typed as what it is once `errorMiddleware` is registered: calls that resolve succeeded. */
export function throwingClient<Paths extends OperationPaths<Paths>>(
  client: Client<Paths>,
  channel: ErrorChannel,
): ThrowingClient<Paths> {
  client.use(errorMiddleware(channel));
  return client as unknown as ThrowingClient<Paths>;
}

/** A short text for an error body that is not the API's envelope (a proxy's HTML page, plain text, nothing). */
export function describeBody(body: unknown): string {
  if (body === undefined || body === "") return "(no body)";
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/**
 * The message for a body that is not the API's error envelope: what came back, and for a 2xx (links, pay: every
 * success carries its flag) that the success flag is missing too.
 */
export function notTheEnvelope(api: string, successFlag: string, body: unknown, response: Response): string {
  return response.ok ? `not the ${api} envelope (no ${successFlag}): ${describeBody(body)}` : describeBody(body);
}

/** `T` without the member that is exactly `E` (a success envelope that merely fits `E`'s looser shape stays). */
type WithoutExactly<T, E> = T extends unknown ? ([T] extends [E] ? ([E] extends [T] ? never : T) : T) : never;

type SuccessBodies<R, E> = {
  [S in keyof R]: S extends "default"
    ? R[S]
    : R[S] extends { content: infer C }
      ? Omit<R[S], "content"> & { content: { [M in keyof C]: WithoutExactly<C[M], E> } }
      : R[S];
};

/**
 * The contract's paths with the error envelope `E` taken out of every non-default response body. The contract lets
 * any status carry the envelope, so the generated types make a raw caller check it; the clients throw it instead.
 */
export type WithoutErrorEnvelope<Paths, E> = {
  [P in keyof Paths]: {
    [M in keyof Paths[P]]: Paths[P][M] extends { responses: infer R }
      ? Omit<Paths[P][M], "responses"> & { responses: SuccessBodies<R, E> }
      : Paths[P][M];
  };
};
