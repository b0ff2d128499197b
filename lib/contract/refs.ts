// JSON pointers (RFC 6901) and local `$ref` resolution. Pointers are built from segments here and nowhere else,
// so no caller escapes `~` and `/` by hand. (@redocly/openapi-core has pointer helpers too, but it is a CommonJS,
// Node-only development dependency; this module also runs in the browser bundle of the MSW handlers.)
import { isReference, type Reference } from "./model.js";

/** Escapes one segment: `~` → `~0`, `/` → `~1`. (Pointers are built and parsed on every lookup in a contract, and
 * most segments have nothing to escape: those are returned as they are.) */
export function escapeSegment(segment: string | number): string {
  const text = String(segment);
  return /[~/]/.test(text) ? text.replaceAll("~", "~0").replaceAll("/", "~1") : text;
}

export function unescapeSegment(segment: string): string {
  return segment.includes("~") ? segment.replaceAll("~1", "/").replaceAll("~0", "~") : segment;
}

/** The pointer of a path of unescaped segments, e.g. `["paths", "/me", "get"]` → `/paths/~1me/get`. */
export function pointerOf(segments: ReadonlyArray<string | number>): string {
  return segments.map((segment) => `/${escapeSegment(segment)}`).join("");
}

/** `pointer` extended by more unescaped segments. */
export function joinPointer(pointer: string, ...segments: Array<string | number>): string {
  return pointer + pointerOf(segments);
}

/** The unescaped segments of a pointer (`""` is the whole document); a `#` fragment prefix is accepted. */
export function parsePointer(pointer: string): string[] {
  const text = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (text === "") return [];
  if (!text.startsWith("/")) throw new Error(`not a JSON pointer: ${pointer}`);
  return text.slice(1).split("/").map(unescapeSegment);
}

function child(node: unknown, segment: string): unknown {
  if (Array.isArray(node)) return /^(0|[1-9]\d*)$/.test(segment) ? (node as unknown[])[Number(segment)] : undefined;
  if (typeof node === "object" && node !== null && Object.hasOwn(node, segment))
    return (node as Record<string, unknown>)[segment];
  return undefined;
}

/** The value at a pointer, without following `$ref`s (undefined when there is none). */
export function valueAt(doc: unknown, pointer: string): unknown {
  return parsePointer(pointer).reduce(child, doc);
}

/**
 * The local pointer a `$ref` names (`#/components/schemas/X` → `/components/schemas/X`); only local refs exist in
 * bundles.
 */
export function refPointer(ref: Reference | string): string {
  const text = typeof ref === "string" ? ref : ref.$ref;
  if (!text.startsWith("#")) throw new Error(`only local $refs are supported in a bundle, got ${text}`);
  return text.slice(1);
}

/**
 * The pointer at which `pointer` really lives once every local `$ref` on the way (and at the end) is followed,
 * e.g. `/paths/~1me/get/responses/403` → `/components/responses/ScopeError`.
 */
export function canonicalPointer(doc: unknown, pointer: string, label = "document"): string {
  let current = "";
  let node = doc;
  const follow = (): void => {
    const seen = new Set<string>();
    while (isReference(node)) {
      if (seen.has(node.$ref)) throw new Error(`${label}: circular $ref ${node.$ref}`);
      seen.add(node.$ref);
      current = refPointer(node);
      node = valueAt(doc, current);
    }
  };
  for (const segment of parsePointer(pointer)) {
    follow();
    node = child(node, segment);
    if (node === undefined) throw new Error(`${label}: nothing at ${pointer}`);
    current = joinPointer(current, segment);
  }
  follow();
  return current;
}

/** The value at a pointer, following `$ref`s on the way and at the end. */
export function resolveAt(doc: unknown, pointer: string, label?: string): unknown {
  return valueAt(doc, canonicalPointer(doc, pointer, label));
}

/**
 * A node that may be a `$ref`, followed to what it names. The caller states the type the position declares
 * (e.g. `Parameter | Reference` → `Parameter`); bundles are linted, so the target has that type.
 */
export function deref<T>(doc: unknown, node: T | Reference, label = "document"): T {
  if (!isReference(node)) return node;
  return resolveAt(doc, refPointer(node), label) as T;
}
