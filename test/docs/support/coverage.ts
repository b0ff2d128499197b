// Does the built site show everything the contract says? Every operation and webhook (by operationId) and every
// schema must have its anchor on the API's reference page; every quirk must be on the quirks page and every gap on
// the gaps page, and both also where they apply on the reference page.
import { collectAnnotations, collectProvenance } from "../../../scripts/docs/annotations.js";
import { type OpenApiDocument, operationAnchor, operationsOf, schemaAnchor } from "../../../scripts/docs/document.js";

export interface BuiltApiPages {
  reference: string;
  quirks: string;
  gaps: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The visible text of an HTML page, entities decoded and whitespace collapsed. */
function pageText(html: string): string {
  return normalise(
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]+>/g, "")
      .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, name: string) => {
        if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(parseInt(name.slice(2), 16));
        if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
        return ENTITIES[name.toLowerCase()] ?? entity;
      }),
  );
}

/** Spec prose as it reads once rendered: code spans lose their backticks. */
function normalise(text: string): string {
  return text.replaceAll("`", "").replace(/\s+/g, " ").trim();
}

/** What of the document the built pages do not show, one line each (empty when everything is there). */
export function missingFromSite(doc: OpenApiDocument, pages: BuiltApiPages): string[] {
  const missing: string[] = [];
  const text = { reference: pageText(pages.reference), quirks: pageText(pages.quirks), gaps: pageText(pages.gaps) };
  const hasAnchor = (id: string) => pages.reference.includes(`id="${id}"`);
  for (const op of operationsOf(doc)) {
    if (!hasAnchor(operationAnchor(op.operationId)) || !text.reference.includes(op.operationId)) {
      missing.push(`${op.webhook ? "webhook" : "operation"} ${op.operationId}`);
    }
  }
  for (const name of Object.keys(doc.components?.schemas ?? {})) {
    if (!hasAnchor(schemaAnchor(name))) missing.push(`schema ${name}`);
  }
  for (const annotation of collectAnnotations(doc)) {
    const sentence = normalise(annotation.text);
    const page = annotation.kind === "quirk" ? "quirks" : "gaps";
    if (!text[page].includes(sentence)) missing.push(`${annotation.kind} on the ${page} page: ${annotation.text} (${annotation.pointer})`);
    if (!text.reference.includes(sentence)) missing.push(`${annotation.kind} on the reference page: ${annotation.text} (${annotation.pointer})`);
  }
  for (const entry of collectProvenance(doc)) {
    if (!text.gaps.includes(normalise(entry.text))) missing.push(`${entry.kind} on the gaps page: ${entry.text} (${entry.pointer})`);
  }
  return missing;
}
