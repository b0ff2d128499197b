// The readers' copy of a bundle: the contract plus, on every operation, its generated code samples (`x-codeSamples`,
// which Redoc and other renderers show) and a list of the quirks, gaps and assumptions that apply to it, added to its
// description; those of the whole API (on `info`, which Redoc does not show) are added to the API's description. The
// standalone Redoc pages (scripts/generate.ts) are built from it and the reference pages of the docs site read the same
// samples; the contract itself (generated/openapi/) stays as it is.
import { type Annotation, collectAnnotations } from "./annotations.js";
import { type CodeSample, codeSamplesOf } from "./code-samples.js";
import { type ApiName, type Document, operationsOf } from "./document.js";
import { noteLabel, notesOf } from "./operation-notes.js";

export function readerBundle(api: ApiName, contract: Document): Document {
  const doc = structuredClone(contract);
  // Samples and notes are computed on the untouched contract, then written into the copy.
  for (const [index, op] of operationsOf(contract).entries()) {
    const target = operationsOf(doc)[index]!.operation;
    target["x-codeSamples"] = codeSamplesOf(api, contract, op) satisfies CodeSample[];
    const notes = notesOf(contract, op);
    if (notes.length === 0) continue;
    const list = notes.map((note) => noteLine(note.kind, note.text, note.where)).join("\n");
    target.description = withNotes(op.operation.description, "Quirks, gaps and assumptions that apply here", list);
  }
  const wholeApi = collectAnnotations(contract).filter((note) => note.pointer === "" || note.pointer === "/info");
  if (wholeApi.length > 0)
    doc.info.description = withNotes(
      contract.info.description,
      WHOLE_API_NOTES,
      wholeApi.map((note) => noteLine(note.kind, note.text)).join("\n"),
    );
  return doc;
}

/** The heading of the notes on `info` in the API's description. */
export const WHOLE_API_NOTES = "Quirks, gaps and assumptions of the whole API";

const noteLine = (kind: Annotation["kind"], text: string, where?: string) =>
  `- **${noteLabel(kind)}**${where ? ` (${where})` : ""}: ${text.trim()}`;

function withNotes(description: string | undefined, heading: string, list: string): string {
  return [(description ?? "").trimEnd(), `**${heading}**\n\n${list}`].filter(Boolean).join("\n\n");
}

/** The code samples of an operation in the readers' copy. */
export function samplesOf(operation: Record<string, unknown>): CodeSample[] {
  const samples = operation["x-codeSamples"];
  if (!Array.isArray(samples))
    throw new Error(`operation ${String(operation.operationId)} has no x-codeSamples: read it from readerBundle()`);
  return samples as CodeSample[];
}
