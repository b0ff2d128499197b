// The quirks, gaps and assumptions that bite one operation: every `x-quirk`, `x-undocumented` and `x-assumption` on
// the operation itself (its parameters, body and responses), on its path item, or on any component it uses directly
// or through other components (schemas, parameters, responses, headers, its security schemes). The reference
// pages and the readers' copy of the bundle (Redoc) show them at the operation.
import { type Annotation, collectAnnotations } from "./annotations.js";
import { type DocOperation, type Document, reachableRefs, unescapePointerSegment } from "./document.js";

export interface OperationNote extends Annotation {
  /** Where it applies, in words: "response 200 › `data` › `domain`", "schema `Order` › `status`". */
  where: string;
}

const LABELS: Record<Annotation["kind"], string> = { quirk: "Quirk", gap: "Not documented", assumption: "Assumption" };
export const noteLabel = (kind: Annotation["kind"]): string => LABELS[kind];

function words(segments: string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const next = segments[i + 1];
    if ((segment === "responses" || segment === "headers" || segment === "parameters") && next !== undefined) {
      parts.push(`${segment === "responses" ? "response" : segment === "headers" ? "header" : "parameter"} ${next}`);
      i++;
    } else if (segment === "properties" && next !== undefined) {
      parts.push(`\`${next}\``);
      i++;
    } else if (segment === "content" && next !== undefined) {
      i++;
    } else if (segment === "requestBody") {
      parts.push("request body");
    } else if (segment === "items") {
      parts.push("items");
    } else if (segment !== "schema") {
      parts.push(segment);
    }
  }
  return parts.join(" › ");
}

const COMPONENT_WORDS: Record<string, string> = {
  schemas: "schema",
  parameters: "parameter",
  responses: "response",
  headers: "header",
  requestBodies: "request body",
  securitySchemes: "security scheme",
  pathItems: "path item",
};

/** Every annotation that applies to the operation, in document order, each with where it sits. */
export function notesOf(doc: Document, op: DocOperation): OperationNote[] {
  const pathItemPointer = op.pointer.split("/").slice(0, 3).join("/");
  const used = reachableRefs(doc, op.operation);
  const requirements = op.operation.security ?? doc.security ?? [];
  for (const requirement of requirements)
    for (const name of Object.keys(requirement)) used.add(`#/components/securitySchemes/${name}`);
  const pathParameters = (doc[op.webhook ? "webhooks" : "paths"] as Record<string, Record<string, unknown>>)[op.path]
    ?.parameters;
  for (const ref of reachableRefs(doc, pathParameters ?? [])) used.add(ref);
  const notes: OperationNote[] = [];
  for (const annotation of collectAnnotations(doc)) {
    const segments = annotation.pointer.split("/").slice(1).map(unescapePointerSegment);
    if (annotation.pointer === op.pointer || annotation.pointer.startsWith(`${op.pointer}/`)) {
      notes.push({ ...annotation, where: words(segments.slice(3)) || "this operation" });
    } else if (annotation.pointer.startsWith(`${pathItemPointer}/parameters/`)) {
      notes.push({ ...annotation, where: words(segments.slice(2)) });
    } else if (
      segments[0] === "components" &&
      segments.length >= 3 &&
      used.has(`#/components/${segments[1]}/${annotation.pointer.split("/")[3]}`)
    ) {
      const head = `${COMPONENT_WORDS[segments[1]!] ?? segments[1]} \`${segments[2]}\``;
      const rest = words(segments.slice(3));
      notes.push({ ...annotation, where: rest ? `${head} › ${rest}` : head });
    }
  }
  return notes;
}
