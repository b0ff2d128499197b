// Sandbox handlers typed by the generated operation types (generated/types/<api>.ts): a handler receives the
// operation's parameters and body as the contract types them and must answer one of its documented responses,
// so a handler answering something the contract does not allow fails to compile. Routing and request checks
// are lib/contract's; handlers are found by operationId, never by a path typed here.
import {
  type ApiName,
  type ApiOperations,
  loadContract,
  type OperationId,
  type RouteMatch,
} from "../../lib/contract/index.js";
import { json, type SandboxRequest, type SandboxResponse } from "./http.js";

type Present<T> = [NonNullable<T>] extends [never] ? object : NonNullable<T>;
type OperationOf<A extends ApiName, Id extends OperationId<A>> = ApiOperations[A][Id];
type Field<T, K extends string> =
  T extends Record<K, infer V> ? V : T extends Partial<Record<K, infer V>> ? V : undefined;

/** The operation's path, query and header parameters by name, as the contract types them. */
export type ParamsOf<A extends ApiName, Id extends OperationId<A>> =
  OperationOf<A, Id> extends { parameters: infer P }
    ? Present<Field<P, "path">> & Present<Field<P, "query">> & Present<Field<P, "header">>
    : object;

/** The operation's request body (the JSON media type's schema type); undefined when it has none. */
export type BodyOf<A extends ApiName, Id extends OperationId<A>> =
  NonNullable<Field<OperationOf<A, Id>, "requestBody">> extends { content: infer C } ? C[keyof C] : undefined;

type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : undefined;
type StatusOf<S> = S extends number ? S : number;

/** One documented answer of the operation: a status it lists (any status for `default`/ranges) and its body. */
export type ReplyOf<A extends ApiName, Id extends OperationId<A>> = {
  [S in keyof Field<OperationOf<A, Id>, "responses">]: {
    status: StatusOf<S>;
    body: ContentOf<Field<OperationOf<A, Id>, "responses">[S]>;
    headers?: Record<string, string>;
  };
}[keyof Field<OperationOf<A, Id>, "responses">];

export interface HandlerInput<A extends ApiName, Id extends OperationId<A>, Ctx> {
  params: ParamsOf<A, Id>;
  body: BodyOf<A, Id>;
  context: Ctx;
}

export type Handler<A extends ApiName, Id extends OperationId<A>, Ctx> = (
  input: HandlerInput<A, Id, Ctx>,
) => ReplyOf<A, Id> | Promise<ReplyOf<A, Id>>;

/** A handler for every operation the sandbox serves (webhooks are sent, not served, so they are optional). */
export type HandlerTable<A extends ApiName, Ctx> = { [Id in OperationId<A>]?: Handler<A, Id, Ctx> };

/** Types one handler by its operationId: `handler<"links", "listDomains", Ctx>(({ params }) => …)`. */
export function handler<A extends ApiName, Id extends OperationId<A>, Ctx>(
  fn: Handler<A, Id, Ctx>,
): Handler<A, Id, Ctx> {
  return fn;
}

export type Routed =
  | { ok: true; match: RouteMatch; params: Record<string, unknown>; body: unknown }
  | { ok: false; status: number; message: string; headers: Record<string, string> };

/** The sandbox side of one API's contract: routing (404/405), request checks, and typed dispatch by operationId. */
export class OperationServer<A extends ApiName, Ctx> {
  private readonly contract;

  constructor(
    readonly api: A,
    private readonly handlers: HandlerTable<A, Ctx>,
  ) {
    this.contract = loadContract(api);
    const missing = this.contract
      .operations()
      .filter((op) => !op.webhook && !(op.operationId in handlers))
      .map((op) => op.operationId);
    if (missing.length > 0) throw new Error(`the ${api} sandbox does not implement ${missing.join(", ")}`);
  }

  /** The operation of a request: 404 for a path the contract does not have, 405 (with Allow) for a wrong method. */
  route(
    request: SandboxRequest,
  ): { ok: true; match: RouteMatch } | { ok: false; status: number; message: string; headers: Record<string, string> } {
    const match = this.contract.route(request.method, request.url.pathname);
    if (match) return { ok: true, match };
    const allowed = this.contract.allowedMethods(request.url.pathname).map((method) => method.toUpperCase());
    if (allowed.length === 0)
      return {
        ok: false,
        status: 404,
        message: `no ${this.api} endpoint at ${request.url.pathname}${this.slashHint(request.url.pathname)}`,
        headers: {},
      };
    const allow = allowed.join(", ");
    return {
      ok: false,
      status: 405,
      message: `${request.method} is not allowed on ${request.url.pathname}; use ${allow}`,
      headers: { allow },
    };
  }

  /** Pay's paths end with a slash and links' do not: a path that differs only there gets the contract's spelling. */
  private slashHint(pathname: string): string {
    const other = pathname.endsWith("/") ? pathname.slice(0, -1) : `${pathname}/`;
    return other && this.contract.allowedMethods(other).length > 0 ? ` (the contract's path is ${other})` : "";
  }

  /** Parameters and body checked against the operation (coerced to their schema types). */
  check(match: RouteMatch, request: SandboxRequest): Routed {
    const checked = this.contract.checkRequest(match, request);
    if (!checked.ok) return { ...checked, headers: {} };
    const overflow = nonFiniteAt({ ...checked.params, body: checked.body });
    if (overflow)
      return {
        ok: false,
        status: 400,
        message: `${overflow} is a number too large to represent (it reads as Infinity)`,
        headers: {},
      };
    return { ok: true, match, params: checked.params, body: checked.body };
  }

  /** Runs the operation's handler on checked input; the reply goes out as JSON. */
  async dispatch(checked: Extract<Routed, { ok: true }>, context: Ctx): Promise<SandboxResponse> {
    const id = checked.match.operation.operationId as OperationId<A>;
    const run = this.handlers[id];
    if (!run) throw new Error(`the ${this.api} sandbox has no handler for ${id}`);
    // The request was validated against this operation's schemas just before, so it has the generated shape.
    const reply = await run({
      params: checked.params as ParamsOf<A, OperationId<A>>,
      body: checked.body as BodyOf<A, OperationId<A>>,
      context,
    });
    const { status, body, headers } = reply as { status: number; body: unknown; headers?: Record<string, string> };
    return json(status, body, headers);
  }
}

/**
 * Where a checked request holds a number that is not finite, e.g. "body/nonce". JSON.parse reads 1e400 as Infinity,
 * which JSON Schema's number and integer accept but no handler can count with, and which JSON writes back as null
 * (a nonce stored as Infinity comes back from the data file as null). Walked with a stack: bodies may nest deeply.
 */
function nonFiniteAt(values: Record<string, unknown>): string | undefined {
  const pending: Array<[string, unknown]> = Object.entries(values);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [path, value] = next;
    if (typeof value === "number" && !Number.isFinite(value)) return path;
    if (value !== null && typeof value === "object")
      for (const [key, item] of Object.entries(value)) pending.push([`${path}/${key}`, item]);
  }
  return undefined;
}
