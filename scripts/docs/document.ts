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
