// The example request of an operation, which both code samples and the docs' console (TryIt) send: its parameters
// and body from the contract's examples, with placeholders where a required value has none.
import {
  deref as derefIn,
  examplesOf,
  type JsonSchema,
  type MediaType,
  type Reference,
  schemaFallback,
} from "../../lib/contract/index.js";
import { deref, type DocOperation, type Node, type Document } from "./document.js";

/** The media type that samples show: the JSON one, else the first. */
export function mediaTypeName(content: Record<string, Node> | undefined): string | undefined {
  const types = Object.keys(content ?? {});
  return types.find((type) => type.includes("json")) ?? types[0];
}

/**
 * The first example of a parameter or media type (lib/contract's order), else its schema's default or first enum
 * value.
 */
function exampleOf(doc: Document, owner: Node | undefined): unknown {
  if (!owner) return undefined;
  const follow = <T>(node: T | Reference): T => derefIn<T>(doc, node, doc.info.title);
  const [first] = examplesOf(owner as MediaType, follow);
  return first
    ? first.value
    : schemaFallback(owner.schema ? follow<JsonSchema>(owner.schema as JsonSchema) : undefined);
}

export interface RequestParts {
  path: string;
  query: Array<[string, unknown]>;
  pathParams: Array<[string, unknown]>;
  headers: Array<[string, unknown]>;
  bodyType: string | undefined;
  body: unknown;
}

/** Optional parameters whose example is longer than this (an id_token) stay out of the samples. */
const LONGEST_OPTIONAL_EXAMPLE = 80;

/**
 * The example request of an operation: the required parameters, the optional ones that have a short example, and
 * the first body example.
 */
export function exampleRequest(doc: Document, op: DocOperation): RequestParts {
  const parameters = (op.operation.parameters ?? []).map((p) => deref(doc, p));
  const pick = (where: string) =>
    parameters
      .filter((p) => p.in === where)
      .map((p) => {
        const example = exampleOf(doc, p);
        if (p.required)
          return [p.name as string, example ?? placeholder(deref(doc, p.schema ?? {}))] as [string, unknown];
        const short = example !== undefined && JSON.stringify(example).length <= LONGEST_OPTIONAL_EXAMPLE;
        return [p.name as string, short ? example : undefined] as [string, unknown];
      })
      .filter(([, value]) => value !== undefined);
  const pathParams = pick("path");
  let path = op.path;
  for (const [name, value] of pathParams) path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  const body = deref(doc, op.operation.requestBody);
  const bodyType = mediaTypeName(body?.content);
  return {
    path,
    query: pick("query"),
    pathParams,
    headers: pick("header"),
    bodyType,
    body: bodyType ? (exampleOf(doc, body?.content?.[bodyType]) ?? {}) : undefined,
  };
}

function placeholder(schema: Node): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  return type === "integer" || type === "number" ? 1 : type === "boolean" ? true : "example";
}

export function formBody(value: unknown): string {
  return new URLSearchParams(
    Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  ).toString();
}

/** A pay body without the example's shop and nonce: every pay request carries the caller's shop and a fresh nonce. */
export function withoutShopAndNonce(body: unknown): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries((body ?? {}) as Record<string, unknown>).filter(([key]) => key !== "shop_id" && key !== "nonce"),
  );
}
