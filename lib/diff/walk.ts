// The walk both comparers share: nodes resolved through `$ref`s, where the walk is (operation, direction, location),
// and how a change found there is reported.
import { canonicalPointer, type Document, escapeSegment, valueAt } from "../contract/index.js";
import { type ChangeCollector, type Direction } from "./changes.js";
import { field } from "./json.js";

/** A node of a document once its `$ref`s are followed: the value and the pointer where it really lives. */
export interface Node {
  pointer: string;
  value: unknown;
}

export function resolve(doc: Document, pointer: string): Node {
  const canonical = canonicalPointer(doc, pointer, doc.info.title);
  const value: unknown = valueAt(doc, canonical);
  return { pointer: canonical, value };
}

/** The child `key` of a resolved node, resolved; undefined when the node has no such child. */
export function child(doc: Document, node: Node, ...keys: string[]): Node | undefined {
  let value = node.value;
  for (const key of keys) value = field(value, key);
  if (value === undefined) return undefined;
  return existingChild(doc, node, ...keys);
}

/** The child `key` of a resolved node, resolved, where the caller knows it exists (throws when it does not). */
export function existingChild(doc: Document, node: Node, ...keys: string[]): Node {
  return resolve(doc, `${node.pointer}/${keys.map((key) => escapeSegment(key)).join("/")}`);
}

export interface WalkContext {
  before: Document;
  after: Document;
  collector: ChangeCollector;
  /** The operation being walked, e.g. `POST /api/orders`. */
  operation: string;
  /** Node pairs already compared in this operation (schemas may be recursive). */
  visited: Set<string>;
}

export interface Site {
  direction: Direction;
  /** Human location inside the operation, e.g. `request body application/json`. */
  where: string;
  /** Path inside the schema, e.g. `.variants[].title`. */
  path?: string;
}

export function report(
  ctx: WalkContext,
  site: Site,
  rule: string,
  breaking: boolean,
  message: string,
  pointer: string,
): void {
  const where = site.path ? `${site.where} ${site.path}` : site.where;
  ctx.collector.add({ rule, breaking, direction: site.direction, where, message, pointer }, ctx.operation);
}

export const within = (site: Site, step: string): Site => ({ ...site, path: `${site.path ?? ""}${step}` });

/** Short JSON for messages. */
export function show(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
