// The OpenAPI Link Objects of a bundle (`responses.<status>.links`) and the runtime expressions in them: which value
// of one operation's response a later request uses (a new domain's id for its update and deletion, a listed
// category for a new product). The runner takes ids and other deployment values from here instead of a hand-kept
// list, and derives the resources its stateful sequences follow from them (linkedResources).
import { type Document, isJsonObject, listOperationsOf } from "../../lib/contract/index.js";
import type { ResourceKind } from "../apis.js";

export interface ContractLink {
  /** The link's name under `links`. */
  name: string;
  /** The operation whose response carries the values. */
  from: string;
  status: string;
  /** The operation that uses them. */
  to: string;
  /** Values of the target's parameters: `in` when the name is qualified (`path.id`), an expression or a literal. */
  parameters: Array<{ in?: string; name: string; value: unknown }>;
  /**
   * A body for the target: an object whose properties are expressions or literals (merged into a case's body), or one
   * expression.
   */
  requestBody?: unknown;
}

/** What a runtime expression reads: the request that was sent and the response to it. */
export interface LinkContext {
  request: {
    method: string;
    url: string;
    path: Record<string, unknown>;
    query: Record<string, unknown>;
    headers: Record<string, unknown>;
    body?: unknown;
  };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

type JsonObject = Record<string, unknown>;

function resolveRef(doc: Document, node: unknown): unknown {
  if (!isJsonObject(node) || typeof node.$ref !== "string" || !node.$ref.startsWith("#")) return node;
  return resolveRef(doc, pointerValue(doc, node.$ref.slice(1), false));
}

/** Every Link Object of the document, in document order. */
export function readLinks(doc: Document): ContractLink[] {
  const links: ContractLink[] = [];
  for (const op of listOperationsOf(doc)) {
    const responses = (op.operation.responses ?? {}) as JsonObject;
    for (const [status, response] of Object.entries(responses)) {
      const declared = (resolveRef(doc, response) as JsonObject | undefined)?.links;
      if (!isJsonObject(declared)) continue;
      for (const [name, value] of Object.entries(declared)) {
        const link = resolveRef(doc, value) as JsonObject;
        if (typeof link.operationId !== "string")
          throw new Error(`link ${name} of ${op.operationId} names no operationId (operationRef is not supported)`);
        const parameters = Object.entries(isJsonObject(link.parameters) ? link.parameters : {}).map(
          ([key, expression]) => {
            const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(key);
            return qualified
              ? { in: qualified[1], name: qualified[2]!, value: expression }
              : { name: key, value: expression };
          },
        );
        links.push({
          name,
          from: String(op.operationId),
          status,
          to: link.operationId,
          parameters,
          ...(link.requestBody !== undefined ? { requestBody: link.requestBody } : {}),
        });
      }
    }
  }
  return links;
}

/**
 * A JSON pointer (RFC 6901) into a value. With `anyItem`, an array index 0 stands for "an item of the list": the
 * first item for which the rest of the pointer gives a value (a link names the first row of a list as its example;
 * a root category has no parent_id, the next row may).
 */
export function pointerValue(value: unknown, pointer: string, anyItem = true): unknown {
  if (pointer === "") return value;
  const segments = pointer
    .slice(1)
    .split("/")
    .map((s) => decodeURIComponent(s).replaceAll("~1", "/").replaceAll("~0", "~"));
  const walk = (node: unknown, index: number): unknown => {
    if (index === segments.length) return node;
    const segment = segments[index]!;
    if (Array.isArray(node)) {
      if (anyItem && segment === "0") {
        for (const item of node) {
          const found = walk(item, index + 1);
          if (found !== undefined && found !== null) return found;
        }
        return undefined;
      }
      return /^\d+$/.test(segment) ? walk(node[Number(segment)], index + 1) : undefined;
    }
    return isJsonObject(node) ? walk(node[segment], index + 1) : undefined;
  };
  return walk(value, 0);
}

const EXPRESSION =
  /^\$(url|method|statusCode|request\.(?:path|query|header)\.[^{}#]+|response\.header\.[^{}#]+|(?:request|response)\.body(?:#[^{}]*)?)$/;

/** Whether a string is one runtime expression (OpenAPI 3.1 §4.8.20.4). */
export const isRuntimeExpression = (text: string): boolean => EXPRESSION.test(text);

function evaluateExpression(expression: string, context: LinkContext): unknown {
  if (!EXPRESSION.test(expression)) throw new Error(`not a runtime expression: ${expression}`);
  if (expression === "$url") return context.request.url;
  if (expression === "$method") return context.request.method.toUpperCase();
  if (expression === "$statusCode") return context.response.status;
  const [source, rest] = expression.slice(1).split(/\.(.*)/s) as [string, string];
  if (rest.startsWith("body")) {
    const body = source === "request" ? context.request.body : context.response.body;
    return rest === "body" ? body : pointerValue(body, rest.slice("body#".length));
  }
  const [where, name] = rest.split(/\.(.*)/s) as [string, string];
  if (source === "response") return context.response.headers[name.toLowerCase()];
  const bag =
    where === "header" ? context.request.headers : where === "path" ? context.request.path : context.request.query;
  const key = where === "header" ? Object.keys(bag).find((k) => k.toLowerCase() === name.toLowerCase()) : name;
  return key === undefined ? undefined : bag[key];
}

/** A link value: a literal, one expression, a string with `{expression}` parts, or an object of those (requestBody). */
export function evaluate(value: unknown, context: LinkContext): unknown {
  if (isJsonObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, evaluate(item, context)]));
  if (typeof value !== "string") return value;
  if (value.startsWith("$")) return evaluateExpression(value, context);
  if (!value.includes("{$")) return value;
  return value.replace(/\{(\$[^{}]+)\}/g, (_whole, expression: string) => {
    const found = evaluateExpression(expression, context);
    if (typeof found === "string") return found;
    return found === undefined || found === null ? "" : JSON.stringify(found);
  });
}

/** The pointer of a `$response.body#<pointer>` expression, or undefined. */
function responsePointer(value: unknown): string | undefined {
  return typeof value === "string" && value.startsWith("$response.body#")
    ? value.slice("$response.body#".length)
    : undefined;
}

/** Splits `/data/domains/0/id` at the item index into the list (`/data/domains`) and the item's field (`/id`). */
function splitAtItem(pointer: string): { items: string; itemField: string } | undefined {
  const at = pointer.split("/").indexOf("0");
  if (at < 1) return undefined;
  const segments = pointer.split("/");
  return { items: segments.slice(0, at).join("/"), itemField: `/${segments.slice(at + 1).join("/")}` };
}

/**
 * The resources the links describe: an operation that writes and whose response's id is a path parameter of
 * others (its update, its deletion, its reads), and the list whose rows are linked to the same operations.
 */
export function linkedResources(doc: Document, isRead: (operationId: string) => boolean): ResourceKind[] {
  const operations = listOperationsOf(doc);
  const method = (id: string) => operations.find((op) => op.operationId === id)?.method;
  const links = readLinks(doc);
  const kinds = new Map<string, ResourceKind>();
  for (const link of links) {
    if (isRead(link.from)) continue;
    for (const parameter of link.parameters) {
      const pointer = responsePointer(parameter.value);
      if (pointer === undefined || splitAtItem(pointer) || (parameter.in ?? "path") !== "path") continue;
      const kind = kinds.get(link.from) ?? { name: resourceName(link.from), create: link.from, id: pointer };
      kinds.set(link.from, kind);
      const step = { operationId: link.to, pathParameter: parameter.name };
      if (method(link.to) === "delete") kind.delete ??= step;
      else if (method(link.to) === "get") kind.read ??= step;
      else kind.update ??= step;
    }
  }
  for (const kind of kinds.values()) {
    const followUps = [kind.update, kind.delete, kind.read].flatMap((s) => (s ? [s.operationId] : []));
    for (const link of links) {
      if (!isRead(link.from) || !followUps.includes(link.to)) continue;
      const list = link.parameters
        .map((p) => responsePointer(p.value))
        .flatMap((p) => (p !== undefined ? [splitAtItem(p)] : []))
        .find(Boolean);
      if (!list || kind.list) continue;
      const pages = operations.find((op) => op.operationId === link.from)?.operation.parameters as
        Array<JsonObject> | undefined;
      const page = (pages ?? [])
        .map((p) => resolveRef(doc, p) as JsonObject)
        .find((p) => p.in === "query" && p.name === "page");
      kind.list = {
        operationId: link.from,
        items: list.items,
        itemId: list.itemField,
        ...(page ? { pageParameter: { in: "query" as const, name: "page" } } : {}),
      };
    }
    if (!kind.delete)
      kind.undeletable = `the contract has no operation to delete a ${kind.name} (no Link Object from ${kind.create} names one)`;
  }
  return [...kinds.values()];
}

/** `addDomain` → `domain`, `createOrder` → `order`. */
function resourceName(operationId: string): string {
  const noun = operationId.replace(/^(add|create|new|post|register)/, "");
  return noun.charAt(0).toLowerCase() + noun.slice(1);
}

/** The id of a resource in its creation response (or in a row of its list, with `kind.list.itemId`). */
export function resourceId(body: unknown, pointer: string): string | number | undefined {
  const id = pointerValue(body, pointer, false);
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
