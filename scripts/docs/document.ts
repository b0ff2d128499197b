// What the docs generators need to know about one bundled OpenAPI document: reading it, following its local
// `$ref`s, and the anchors that the reference page gives to operations, schemas and security schemes (the quirks
// and gaps pages link to them).
import { readFileSync } from "node:fs";
import {
  type ApiName,
  deref as derefIn,
  type Document,
  listOperationsOf,
  type OperationInfo,
  unescapeSegment,
  valueAt as lookUp,
} from "../../lib/contract/index.js";
import { bundlePath } from "../../lib/paths.js";

export type { ApiName, Document };

/**
 * A node of an OpenAPI document (operation, parameter, response, media type, schema, example...) as the docs
 * generators read it: the fields they use are typed, anything else is `unknown` and must be narrowed.
 */
export interface Node {
  [key: string]: unknown;
  $ref?: string;
  title?: string;
  summary?: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: Array<Record<string, string[]>>;
  parameters?: Node[];
  requestBody?: Node;
  responses?: Record<string, Node>;
  name?: string;
  in?: string;
  required?: boolean | string[];
  schema?: Node;
  content?: Record<string, Node>;
  headers?: Record<string, Node>;
  examples?: Record<string, Node> | unknown[];
  example?: unknown;
  value?: unknown;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  properties?: Record<string, Node>;
  items?: Node;
  additionalProperties?: Node | boolean;
  allOf?: Node[];
  oneOf?: Node[];
  anyOf?: Node[];
}

/** An operation of a bundle (lib/contract), with its object as a docs node. */
export type DocOperation = Omit<OperationInfo, "operation"> & { operation: Node };

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

/** The node at a JSON pointer of the document, or undefined when there is none. */
export function valueAt(doc: Document, pointer: string): Node | undefined {
  const value: unknown = lookUp(doc, pointer);
  return isNode(value) ? value : undefined;
}

/** The bundle as it is on disk now (lib's loadBundle caches, and `docs:dev` must see a regenerated bundle). */
export function readBundle(api: ApiName): Document {
  return JSON.parse(readFileSync(bundlePath(api), "utf8")) as Document;
}

export function operationsOf(doc: Document): DocOperation[] {
  return listOperationsOf(doc, doc.info.title).map((op) => ({ ...op, operation: op.operation as Node }));
}

export { unescapeSegment as unescapePointerSegment };

/** Follows local `$ref`s until a node without one. */
export function deref(doc: Document, node: Node): Node;
export function deref(doc: Document, node: Node | undefined): Node | undefined;
export function deref(doc: Document, node: Node | undefined): Node | undefined {
  return node === undefined ? undefined : derefIn<Node>(doc, node, doc.info.title);
}

/** `#/components/schemas/Order` → `Order`. */
export function refName(ref: string): string {
  return unescapeSegment(ref.split("/").at(-1) ?? ref);
}

export const operationAnchor = (operationId: string): string => operationId;
export const schemaAnchor = (name: string): string => `schema-${name}`;
export const securityAnchor = (name: string): string => `security-${name}`;
export const tagAnchor = (name: string): string => `tag-${name}`;

/** Every `$ref` target inside a node, following references transitively (schemas included). */
export function reachableRefs(doc: Document, node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) reachableRefs(doc, item, found);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/") && !found.has(value)) {
        found.add(value);
        reachableRefs(doc, lookUp(doc, value.slice(1)), found);
      } else {
        reachableRefs(doc, value, found);
      }
    }
  }
  return found;
}

// The reference of an API is split into pages (docs/reference/<api>/): the overview (index), one page per tag, one
// for the webhooks and one for the schemas, beside the quirks and gaps pages.
const RESERVED_PAGES = new Set(["index", "quirks", "gaps", "schemas", "webhooks"]);

/** The page of a tag: its name in lower case, prefixed when it would take the name of another page. */
export function tagPage(tag: string): string {
  const slug =
    tag
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "other";
  return RESERVED_PAGES.has(slug) ? `tag-${slug}` : slug;
}

/** The page (without `.md`) that shows an operation. */
export function operationPage(op: DocOperation): string {
  return op.webhook ? "webhooks" : tagPage(op.operation.tags?.[0] ?? "other");
}

/** A link to an operation from any page of its API's reference, e.g. `./orders#createOrder`. */
export function operationHref(doc: Document, operationId: string): string {
  const op = operationsOf(doc).find((candidate) => candidate.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return `./${operationPage(op)}#${operationAnchor(operationId)}`;
}

/** Stable anchors of an operation's parts: `createOrder-200`, `createOrder-default`, `createOrder-request`. */
export const responseAnchor = (operationId: string, status: string): string => `${operationId}-${status}`;
