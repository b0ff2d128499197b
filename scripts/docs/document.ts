// What the docs generators need to know about one bundled OpenAPI document: reading it, following its local
// `$ref`s, and the anchors that the reference page gives to operations, schemas and security schemes (the quirks
// and gaps pages link to them).
import { readFileSync } from "node:fs";
import { type ApiName, listOperationsIn, type OpenApiDocument, valueAt } from "../../lib/openapi.js";
import { bundlePath } from "../../lib/paths.js";

export { valueAt };
export type { ApiName, OpenApiDocument };
export type DocOperation = ReturnType<typeof listOperationsIn>[number];

/** The bundle as it is on disk now (lib's loadBundle caches, and `docs:dev` must see a regenerated bundle). */
export function readBundle(api: ApiName): OpenApiDocument {
  return JSON.parse(readFileSync(bundlePath(api), "utf8")) as OpenApiDocument;
}

export function operationsOf(doc: OpenApiDocument): DocOperation[] {
  return listOperationsIn(doc);
}

export function unescapePointerSegment(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Follows local `$ref`s until a node without one. */
export function deref(doc: OpenApiDocument, node: any): any {
  const seen = new Set<string>();
  while (node && typeof node === "object" && typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
    if (seen.has(node.$ref)) throw new Error(`circular $ref ${node.$ref}`);
    seen.add(node.$ref);
    node = valueAt(doc, node.$ref.slice(1));
  }
  return node;
}

/** `#/components/schemas/Order` → `Order`. */
export function refName(ref: string): string {
  return unescapePointerSegment(ref.split("/").at(-1) ?? ref);
}

export const operationAnchor = (operationId: string): string => operationId;
export const schemaAnchor = (name: string): string => `schema-${name}`;
export const securityAnchor = (name: string): string => `security-${name}`;
export const tagAnchor = (name: string): string => `tag-${name}`;

/** Every `$ref` target inside a node, following references transitively (schemas included). */
export function reachableRefs(doc: OpenApiDocument, node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) reachableRefs(doc, item, found);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/") && !found.has(value)) {
        found.add(value);
        reachableRefs(doc, valueAt(doc, value.slice(1)), found);
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
  const slug = tag.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "other";
  return RESERVED_PAGES.has(slug) ? `tag-${slug}` : slug;
}

/** The page (without `.md`) that shows an operation. */
export function operationPage(op: DocOperation): string {
  return op.webhook ? "webhooks" : tagPage((op.operation.tags as string[] | undefined)?.[0] ?? "other");
}

/** A link to an operation from any page of its API's reference, e.g. `./orders#createOrder`. */
export function operationHref(doc: OpenApiDocument, operationId: string): string {
  const op = operationsOf(doc).find((candidate) => candidate.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return `./${operationPage(op)}#${operationAnchor(operationId)}`;
}

/** Stable anchors of an operation's parts: `createOrder-200`, `createOrder-default`, `createOrder-request`. */
export const responseAnchor = (operationId: string, status: string): string => `${operationId}-${status}`;
