// Does the built site show everything the contract says? Every operation and webhook has its stable anchor (its
// operationId) on its page, with its code samples (curl and the TypeScript client call), its generated type names,
// a copy-link button, an anchor per response status, and every quirk, gap and assumption that applies to it with a
// badge counting them in its header. Every schema has its anchor on the schemas page; every quirk is on the quirks
// page and every gap on the gaps page.
import { collectAnnotations, collectProvenance } from "../../../scripts/docs/annotations.js";
import { typeNamesOf } from "../../../scripts/docs/code-samples.js";
import {
  type ApiName,
  type Document,
  operationAnchor,
  operationPage,
  operationsOf,
  responseAnchor,
  schemaAnchor,
} from "../../../scripts/docs/document.js";
import { notesOf } from "../../../scripts/docs/operation-notes.js";
import { readerBundle, samplesOf } from "../../../scripts/docs/reader-bundle.js";

export interface BuiltApiPages {
  /** The built reference pages of the API: page name (`index`, a tag page, `webhooks`, `schemas`) to HTML. */
  reference: Map<string, string>;
  quirks: string;
  gaps: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The visible text of an HTML page, entities decoded and whitespace collapsed. */
export function pageText(html: string): string {
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

/** The HTML of one operation's section: from its heading to the next operation's heading. */
export function operationSection(html: string, operationId: string): string | undefined {
  const start = html.indexOf(`<h2 id="${operationAnchor(operationId)}"`);
  if (start < 0) return undefined;
  const next = html.indexOf("<h2 ", start + 1);
  return html.slice(start, next < 0 ? undefined : next);
}

const BADGE_WORDS = { quirk: "quirk", gap: "gap", assumption: "assumption" } as const;

/** What of one operation its page does not show, one line each. */
export function missingFromOperation(api: ApiName, doc: Document, operationId: string, pageHtml: string): string[] {
  const op = operationsOf(doc).find((o) => o.operationId === operationId)!;
  const section = operationSection(pageHtml, operationId);
  if (!section) return [`${operationId}: no section with the anchor #${operationAnchor(operationId)}`];
  const missing: string[] = [];
  const text = pageText(section);
  const readerOp = operationsOf(readerBundle(api, doc)).find((o) => o.operationId === operationId)!;
  for (const sample of samplesOf(readerOp.operation)) {
    // Shiki splits code into tokens; the text of each line survives.
    for (const line of sample.source.split("\n").filter((l) => l.trim())) {
      if (!text.includes(normalise(line))) {
        missing.push(`${operationId}: ${sample.label} sample line \`${line}\``);
        break;
      }
    }
  }
  const names = typeNamesOf(doc, op);
  for (const type of [names.request, ...names.responses.map((r) => r.type)].filter(Boolean) as string[]) {
    if (!text.includes(type)) missing.push(`${operationId}: generated type ${type}`);
  }
  if (!section.includes(`class="copy-link" data-anchor="${operationAnchor(operationId)}"`))
    missing.push(`${operationId}: copy-link button`);
  for (const status of Object.keys(op.operation.responses ?? {})) {
    if (!section.includes(`id="${responseAnchor(operationId, status)}"`))
      missing.push(`${operationId}: anchor #${responseAnchor(operationId, status)}`);
  }
  const notes = notesOf(doc, op);
  for (const note of notes) {
    if (!text.includes(normalise(note.text)))
      missing.push(`${operationId}: ${note.kind} (${note.where}): ${note.text}`);
  }
  const heading = section.slice(0, section.indexOf("</h2>"));
  for (const kind of ["quirk", "gap", "assumption"] as const) {
    const count = notes.filter((note) => note.kind === kind).length;
    const badge = new RegExp(`data-kind="${kind}">${count} ${BADGE_WORDS[kind]}s?<`);
    if (count > 0 && !badge.test(heading)) missing.push(`${operationId}: badge "${count} ${kind}" in the header`);
  }
  return missing;
}

/** What of the document the built pages do not show, one line each (empty when everything is there). */
export function missingFromSite(api: ApiName, doc: Document, pages: BuiltApiPages): string[] {
  const missing: string[] = [];
  const all = [...pages.reference.values()].join("\n");
  const text = { reference: pageText(all), quirks: pageText(pages.quirks), gaps: pageText(pages.gaps) };
  for (const op of operationsOf(doc)) {
    const page = pages.reference.get(operationPage(op));
    if (!page) {
      missing.push(`${op.webhook ? "webhook" : "operation"} ${op.operationId}: no page ${operationPage(op)}`);
      continue;
    }
    missing.push(...missingFromOperation(api, doc, op.operationId, page));
  }
  const schemas = pages.reference.get("schemas") ?? "";
  for (const name of Object.keys(doc.components?.schemas ?? {})) {
    if (!schemas.includes(`id="${schemaAnchor(name)}"`)) missing.push(`schema ${name}`);
  }
  for (const annotation of collectAnnotations(doc)) {
    const sentence = normalise(annotation.text);
    if (annotation.kind !== "assumption") {
      const page = annotation.kind === "quirk" ? "quirks" : "gaps";
      if (!text[page].includes(sentence))
        missing.push(`${annotation.kind} on the ${page} page: ${annotation.text} (${annotation.pointer})`);
    }
    if (!text.reference.includes(sentence))
      missing.push(`${annotation.kind} on the reference pages: ${annotation.text} (${annotation.pointer})`);
  }
  for (const entry of collectProvenance(doc)) {
    if (!text.gaps.includes(normalise(entry.text)))
      missing.push(`${entry.kind} on the gaps page: ${entry.text} (${entry.pointer})`);
  }
  return missing;
}
