// The pages of operations (docs/reference/<api>/<tag>.md and webhooks.md): per operation its code samples, type
// names, parameters and fields, responses, the quirks, gaps and assumptions that apply to it, and a console.
import { typeNamesOf } from "./code-samples.js";
import {
  type ApiName,
  deref,
  type Node,
  type DocOperation,
  type Document,
  operationAnchor,
  operationsOf,
  responseAnchor,
  securityAnchor,
} from "./document.js";
import { bodyFields, type FieldRow, fieldTable, inlineHtml, nodeNotes, typeText } from "./fields.js";
import { cell, code, container, fenced, jsonBlock, prose } from "./markdown.js";
import { noteLabel, notesOf, type OperationNote } from "./operation-notes.js";
import { samplesOf } from "./reader-bundle.js";
import { headerRows } from "./reference-overview.js";
import { badges, squash, frontmatter, annotations, extensions } from "./reference-parts.js";

/** The page of a deployment's overlay (DOCS_OVERLAY) and the operations it changes. */
export interface DeploymentPointer {
  page: string;
  title: string;
  operations: string[];
}

/** A page of operations; `ops` come from the readers' copy (with their samples). */
export function operationsPage(
  api: ApiName,
  contract: Document,
  page: string,
  ops: DocOperation[],
  shared: Map<string, Node>,
  deployment?: DeploymentPointer,
): string {
  const info = contract.info;
  const webhooks = page === "webhooks";
  const tag = webhooks ? undefined : (ops[0]!.operation.tags?.[0] ?? "other");
  const tagObject = ((contract.tags as Node[] | undefined) ?? []).find((t) => t.name === tag);
  const title = webhooks ? `${info.title}: webhooks` : `${info.title}: ${tag}`;
  const out: string[] = [
    ...frontmatter(title, ["outline: [2, 2]", "aside: false", "pageClass: reference-operations"]),
    ":::: v-pre",
    `# ${prose(title)}`,
    "",
  ];
  if (webhooks)
    out.push(
      "Requests that the provider sends to **your** server. The request body is what you receive; " +
        "the responses are what you answer.",
      "",
    );
  else out.push(prose(tagObject?.description), "", annotations(tagObject ?? {}), "");
  out.push(
    `Part of the [${prose(info.title)} reference](./): see there the servers, authentication, errors` +
      `${shared.size > 0 ? " and the headers on every response" : ""}.`,
    "",
  );
  const differs = ops.filter((op) => deployment?.operations.includes(op.operationId));
  if (deployment && differs.length > 0)
    out.push(
      `::: warning The deployment this site describes differs`,
      `Its overlay changes ${differs.map((op) => code(op.operationId)).join(", ")}: this page shows the contract; ` +
        `[${deployment.title}](./${deployment.page}) shows what that deployment answers instead.`,
      ":::",
      "",
    );
  out.push("::::", "");
  for (const op of ops) out.push(operationSection(api, contract, op, shared));
  return squash(out);
}

function securityText(doc: Document, op: DocOperation): string {
  const requirements = op.operation.security ?? doc.security;
  if (requirements === undefined) return "";
  if (requirements.length === 0 || requirements.every((r) => Object.keys(r).length === 0)) {
    return op.webhook
      ? "**Authentication:** no security scheme is declared for this webhook."
      : "**Authentication:** none (public).";
  }
  const alternatives = requirements.map((requirement) =>
    Object.entries(requirement)
      .map(
        ([name, scopes]) =>
          `[${code(name)}](./#${securityAnchor(name)})` +
          (scopes.length > 0 ? ` (scopes ${scopes.map(code).join(", ")})` : ""),
      )
      .join(" and "),
  );
  return `**Authentication:** ${alternatives.join(" or ")}.`;
}

/** A note as one list item: its label, where it applies and its text. */
function noteItem(label: string, where: string[], text: string): string {
  const sentence = inlineHtml(text.replace(/\n+/g, " "));
  if (where.length === 1) return `<li><strong>${label}</strong> (${inlineHtml(where[0])}): ${sentence}</li>`;
  // The same sentence on several fields: one line with a count, the places behind it.
  const places = where.map((w) => `<li>${inlineHtml(w)}</li>`).join("");
  return (
    `<li><details class="note-places"><summary><strong>${label}</strong>: ${sentence} ` +
    `<span class="note-count">${where.length} places</span></summary><ul>${places}</ul></details></li>`
  );
}

/** Notes of one kind with the same text become one entry with every place it applies to. */
function grouped(notes: OperationNote[]): Array<{ kind: OperationNote["kind"]; text: string; where: string[] }> {
  const groups = new Map<string, { kind: OperationNote["kind"]; text: string; where: string[] }>();
  for (const note of notes) {
    const key = `${note.kind}\n${note.text.trim()}`;
    const group = groups.get(key) ?? { kind: note.kind, text: note.text.trim(), where: [] };
    group.where.push(note.where);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** A note on a field (a property or a parameter) is shown in that field's row of the tables below as well. */
const onField = (note: OperationNote): boolean => /`[^`]+`$|^parameter /.test(note.where) && note.kind !== "quirk";

/**
 * The notes of an operation, as one HTML block: its quirks and the notes on the operation as a whole in view, each
 * sentence once (with the places it applies to behind a count); the notes that sit on a field, which its row in the
 * tables shows, folded into one line.
 */
function notesBlock(notes: OperationNote[]): string {
  if (notes.length === 0) return "";
  const items = (list: OperationNote[]) =>
    grouped(list)
      .map((group) => noteItem(noteLabel(group.kind), group.where, group.text))
      .join("");
  const shown = notes.filter((note) => !onField(note));
  const folded = notes.filter(onField);
  const fieldLine =
    folded.length === 0
      ? ""
      : `<details class="field-notes"><summary>${folded.length} more ${folded.length === 1 ? "note" : "notes"} on ` +
        `fields (each also in its field's row below)</summary><ul>${items(folded)}</ul></details>`;
  return (
    `<div class="operation-notes custom-block warning"><p class="custom-block-title">` +
    `Quirks, gaps and assumptions that apply here</p>` +
    `${shown.length > 0 ? `<ul>${items(shown)}</ul>` : ""}${fieldLine}</div>`
  );
}

function operationSection(api: ApiName, contract: Document, op: DocOperation, shared: Map<string, Node>): string {
  // The samples come from the readers' copy; the rest from the contract's operation (whose description does not
  // carry the list of notes that the copy appends for Redoc: the page shows them in a callout of its own).
  const original = operationsOf(contract).find((o) => o.operationId === op.operationId)!;
  const operation = original.operation;
  const notes = notesOf(contract, original);
  const anchor = operationAnchor(op.operationId);
  const target = op.webhook ? `webhook <code>${op.path}</code>` : `<code>${op.path}</code>`;
  const heading = `${op.operationId}${operation.summary ? `: ${prose(operation.summary)}` : ""}`;
  // Two panes on a wide screen (reference.css): what to send and what comes back on the left; the samples, an
  // example answer and the console on the right, beside the heading and sticky while the left pane scrolls.
  const out: string[] = [
    `<div class="operation">`,
    `<div class="operation-main">`,
    "",
    ":::: v-pre",
    `## ${heading} ${badges(notes)} {#${anchor}}`,
    "",
    `<p class="operation-signature"><span class="http-method ${op.method}">${op.method.toUpperCase()}</span> ` +
      `${target} <button type="button" class="copy-link" data-anchor="${anchor}" ` +
      `title="Copy a link to this operation">Copy link</button></p>`,
    "",
    prose(operation.description),
    "",
    notesBlock(notes),
    "",
    securityText(contract, original),
    "",
    extensions(operation),
    "",
    ...parametersBlock(contract, original, anchor),
    ...requestBodyBlock(contract, original, anchor),
    ...responsesBlock(contract, op, original, shared),
    "::::",
    "",
    `</div>`,
    `<div class="operation-aside">`,
    "",
    ":::: v-pre",
    ...codeBlocks(op),
    "::::",
    "",
  ];
  if (!op.webhook) out.push(`<TryIt api="${api}" operation-id="${op.operationId}" />`, "");
  out.push(":::: v-pre", ...responseExample(contract, original), ...typeNames(api, contract, original), "::::", "");
  out.push(`</div>`, `</div>`, "");
  return squash(out);
}

/** The first example of the first success response (or of the first response), for the right pane. */
function responseExample(contract: Document, op: DocOperation): string[] {
  const responses = Object.entries(op.operation.responses ?? {});
  const ordered = [...responses.filter(([status]) => status.startsWith("2")), ...responses];
  for (const [status, reference] of ordered) {
    for (const [mediaType, media] of Object.entries(deref(contract, reference).content ?? {})) {
      const first = Object.values((media.examples ?? {}) as Record<string, Node>)[0];
      const value = first ? deref(contract, first).value : media.example;
      if (value === undefined) continue;
      return [
        `<p class="response-example-title">Response ${status} <code>${mediaType}</code></p>`,
        "",
        exampleBlock(mediaType, value),
        "",
      ];
    }
  }
  return [];
}

/** The code samples of the readers' copy `op`. */
function codeBlocks(op: DocOperation): string[] {
  const out = [`### Request {#${operationAnchor(op.operationId)}-code}`, "", "::: code-group"];
  for (const sample of samplesOf(op.operation))
    out.push(fenced(`${sample.lang === "Shell" ? "sh" : "ts"} [${sample.label}]`, sample.source));
  out.push(":::", "");
  return out;
}

/** The names of the generated types of the contract's `original`. */
function typeNames(api: ApiName, contract: Document, original: DocOperation): string[] {
  const names = typeNamesOf(contract, original);
  const typeParts = [
    ...(names.request ? [`request body ${code(names.request)}`] : []),
    ...names.responses.map(({ status, type }) => `${status} ${code(type)}`),
  ];
  if (typeParts.length === 0) return [];
  return [
    `<p class="generated-types"><strong>Generated types</strong> (<code>@platform/contracts/${api}</code>): ` +
      `${typeParts.map((part) => inlineHtml(part)).join(" · ")}</p>`,
    "",
  ];
}

function parametersBlock(contract: Document, op: DocOperation, anchor: string): string[] {
  const parameters = (op.operation.parameters ?? []).map((p) => deref(contract, p));
  if (parameters.length === 0) return [];
  const rows: FieldRow[] = parameters.map((p) => ({
    name: `${p.name} (${p.in})`,
    schema: p.schema,
    required: p.required === true,
    owner: p,
  }));
  return [`### Parameters {#${anchor}-parameters}`, "", fieldTable(contract, rows), ""];
}

function requestBodyBlock(contract: Document, op: DocOperation, anchor: string): string[] {
  if (!op.operation.requestBody) return [];
  const body = deref(contract, op.operation.requestBody);
  return [
    `### Request body${body.required ? "" : " (optional)"} {#${anchor}-request}`,
    "",
    prose(body.description),
    "",
    annotations(body),
    "",
    ...contentBlocks(contract, body.content),
  ];
}

/**
 * Each response of `original` (the contract's operation) with its own headers: the headers every response carries
 * (`shared`) are named once, except on a webhook, whose responses the user's server writes.
 */
function responsesBlock(
  contract: Document,
  op: DocOperation,
  original: DocOperation,
  shared: Map<string, Node>,
): string[] {
  const responses = Object.entries(original.operation.responses ?? {});
  if (responses.length === 0) return [];
  const out = [
    `### ${op.webhook ? "Your responses" : "Responses"} {#${operationAnchor(op.operationId)}-responses}`,
    "",
  ];
  if (shared.size > 0 && !op.webhook)
    out.push(
      "Every response also carries the [headers on every response](./#response-headers) " +
        `(${[...shared.keys()].map(code).join(", ")}).`,
      "",
    );
  for (const [status, reference] of responses) {
    const response = deref(contract, reference);
    const title = status === "default" ? "default (any other status)" : status;
    out.push(
      `#### ${title} {#${responseAnchor(op.operationId, status)}}`,
      "",
      prose(response.description),
      "",
      annotations(response),
      "",
    );
    const headers = Object.entries(response.headers ?? {})
      .filter(([name]) => op.webhook || !shared.has(name))
      .map(([name, header]) => [name, deref(contract, header)] as [string, Node]);
    if (headers.length > 0) out.push("Headers:", "", fieldTable(contract, headerRows(contract, headers)), "");
    out.push(...contentBlocks(contract, response.content));
  }
  return out;
}

function contentBlocks(doc: Document, content: Record<string, Node> | undefined): string[] {
  const out: string[] = [];
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    const schema = media.schema ?? {};
    out.push(`Body ${code(mediaType)}: ${typeText(schema)}`, "");
    const resolved = deref(doc, schema);
    const notes = nodeNotes(resolved);
    if (notes.length > 0) out.push(notes.join("<br>\n"), "");
    const fields = bodyFields(doc, schema);
    if (fields) out.push(fields, "");
    const examples = Object.entries((media.examples ?? {}) as Record<string, Node>).map(
      ([name, reference]) => [name, deref(doc, reference)] as const,
    );
    if ("example" in media) examples.push(["example", { value: media.example }]);
    for (const [name, example] of examples) {
      const title = `Example ${name}${example.summary ? `: ${cell(example.summary)}` : ""}`;
      out.push(
        container(
          "details",
          title,
          `${example.description ? `${prose(example.description)}\n\n` : ""}${exampleBlock(mediaType, example.value)}`,
        ),
        "",
      );
    }
  }
  return out;
}

function exampleBlock(mediaType: string, value: unknown): string {
  if (typeof value === "string") return fenced(mediaType.includes("html") ? "html" : "text", value);
  return jsonBlock(value);
}
