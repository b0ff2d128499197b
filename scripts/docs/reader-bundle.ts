// The readers' copy of a bundle: the contract plus, on every operation, its generated code samples (`x-codeSamples`,
// which Redoc and other renderers show) and a list of the quirks, gaps and assumptions that apply to it, added to its
// description. The standalone Redoc pages (scripts/generate.ts) are built from it and the reference pages of the
// docs site read the same samples; the contract itself (generated/openapi/) stays as it is.
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
    const list = notes.map((note) => `- **${noteLabel(note.kind)}** (${note.where}): ${note.text.trim()}`).join("\n");
    const heading = "**Quirks, gaps and assumptions that apply here**";
    target.description = [String(op.operation.description ?? "").trimEnd(), `${heading}\n\n${list}`].filter(Boolean).join("\n\n");
  }
  return doc;
}

/** The code samples of an operation in the readers' copy. */
export function samplesOf(operation: Record<string, unknown>): CodeSample[] {
  const samples = operation["x-codeSamples"];
  if (!Array.isArray(samples)) throw new Error(`operation ${String(operation.operationId)} has no x-codeSamples: read it from readerBundle()`);
  return samples as CodeSample[];
}
