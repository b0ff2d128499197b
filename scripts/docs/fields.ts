// Field tables of the reference pages, as HTML: name, type, required, description and format of every parameter,
// header or property, nested objects expandable (<details>) with a link to their schema. Every cell carries its
// column name (data-label), so that on a phone each row is shown as a card instead of cutting columns.
import MarkdownIt from "markdown-it";
import { deref, type Node, type Document, refName, schemaAnchor } from "./document.js";
import { code, prose } from "./markdown.js";
import { noteLabel } from "./operation-notes.js";

const markdown = new MarkdownIt({ html: false, linkify: false });

/** Spec markdown (one paragraph or a few) as inline HTML for a table cell. */
export function inlineHtml(text: string | undefined): string {
  if (!text) return "";
  return markdown.renderInline(text.trim().replace(/\s*\n\s*/g, " "));
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** Where the schema pages live, relative to any reference page of the API. */
export const schemaHref = (name: string): string => `./schemas#${schemaAnchor(name)}`;

/** A readable type in markdown: `string`, `array of [Order](./schemas#schema-Order)`, `"0"`, `string or null`. */
export function typeText(schema: Node | boolean | undefined): string {
  if (schema === undefined || schema === true) return "any";
  if (schema === false) return "nothing";
  if (typeof schema.$ref === "string")
    return schema.$ref.startsWith("#/components/schemas/")
      ? `[${refName(schema.$ref)}](${schemaHref(refName(schema.$ref))})`
      : code(schema.$ref);
  if ("const" in schema) return code(JSON.stringify(schema.const));
  if (Array.isArray(schema.enum))
    return `one of ${schema.enum.map((v: unknown) => code(JSON.stringify(v))).join(", ")}`;
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives && alternatives.every((a) => a.$ref || a.type || "const" in a))
    return alternatives.map((a) => typeText(a)).join(" or ");
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? "object" : "any";
  return types
    .map((type) => {
      if (type === "array") return `array of ${typeText(schema.items)}`;
      if (
        type === "object" &&
        schema.additionalProperties &&
        typeof schema.additionalProperties === "object" &&
        !schema.properties
      ) {
        return `map of string to ${typeText(schema.additionalProperties)}`;
      }
      return type;
    })
    .join(" or ");
}

const CONSTRAINTS: Array<[string, string]> = [
  ["pattern", "Pattern"],
  ["minLength", "Min length"],
  ["maxLength", "Max length"],
  ["minimum", "Minimum"],
  ["maximum", "Maximum"],
  ["exclusiveMinimum", "Greater than"],
  ["exclusiveMaximum", "Less than"],
  ["minItems", "Min items"],
  ["maxItems", "Max items"],
  ["minProperties", "Min properties"],
  ["default", "Default"],
  ["contentMediaType", "Media type"],
];

const show = (value: unknown): string => code(typeof value === "string" ? value : String(JSON.stringify(value)));

/** The notes (quirk, gaps, assumption) a node carries, as markdown lines. */
export function nodeNotes(node: Node | undefined): string[] {
  if (!node || typeof node !== "object") return [];
  const lines: string[] = [];
  if (typeof node["x-quirk"] === "string") lines.push(`**${noteLabel("quirk")}:** ${prose(node["x-quirk"])}`);
  for (const gap of (node["x-undocumented"] ?? []) as string[]) lines.push(`**${noteLabel("gap")}:** ${prose(gap)}`);
  if (typeof node["x-assumption"] === "string")
    lines.push(`**${noteLabel("assumption")}:** ${prose(node["x-assumption"])}`);
  return lines;
}

/** The description cell of a parameter, header or property: text, constraints, examples and its notes. */
export function describe(doc: Document, owner: Node, schema: Node | undefined): string {
  const parts = [inlineHtml(owner.description ?? schema?.description)];
  const resolved = schema ? deref(doc, schema) : undefined;
  if (resolved) {
    const constraints = CONSTRAINTS.filter(([key]) => key in resolved).map(
      ([key, label]) => `${label} ${show(resolved[key])}`,
    );
    if (constraints.length > 0) parts.push(inlineHtml(constraints.join("; ")));
  }
  // Parameters and headers have named examples ({name: {value}}); schemas have an array of values (below).
  const named = owner.examples && !Array.isArray(owner.examples) ? Object.values(owner.examples) : [];
  const examples = "example" in owner ? [owner.example] : named.map((e) => deref(doc, e).value);
  if (examples.length === 0 && resolved && Array.isArray(resolved.examples) && !resolved.properties)
    examples.push(...resolved.examples.slice(0, 3));
  if (examples.length > 0) parts.push(inlineHtml(`Example: ${examples.map(show).join(", ")}`));
  const noted = new Set<Node>([owner]);
  if (schema) noted.add(schema);
  if (resolved) noted.add(resolved);
  for (const node of noted)
    for (const line of nodeNotes(node)) parts.push(`<span class="field-note">${inlineHtml(line)}</span>`);
  return parts.filter(Boolean).join("<br>");
}

function formatOf(doc: Document, schema: Node | undefined): string {
  const resolved = schema ? deref(doc, schema) : undefined;
  if (!resolved) return "";
  const format = resolved.format ?? (resolved.type === "array" ? deref(doc, resolved.items ?? {}).format : undefined);
  return format ? `<code>${escapeHtml(String(format))}</code>` : "";
}

export interface FieldRow {
  name: string;
  schema: Node | undefined;
  required: boolean;
  owner: Node;
}

const COLUMNS = ["Name", "Type", "Required", "Description", "Format"];

/** An HTML field table; object-valued fields get an expandable row with their own fields. */
export function fieldTable(doc: Document, rows: FieldRow[], seen: ReadonlySet<string> = new Set(), depth = 0): string {
  const body = rows.map((row) => {
    const cells = [
      `<code>${escapeHtml(row.name)}</code>`,
      inlineHtml(typeText(row.schema)),
      row.required ? "yes" : "no",
      describe(doc, row.owner, row.schema),
      formatOf(doc, row.schema),
    ];
    const tr = `<tr>${cells.map((cell, i) => `<td data-label="${COLUMNS[i]}">${cell}</td>`).join("")}</tr>`;
    const nested = nestedFields(doc, row.name, row.schema, seen, depth);
    return nested ? `${tr}<tr class="nested-fields"><td colspan="5">${nested}</td></tr>` : tr;
  });
  return `<table class="fields"><thead><tr>${COLUMNS.map((c) => `<th>${c}</th>`).join("")}</tr></thead><tbody>${body.join("")}</tbody></table>`;
}

/** The fields of an object schema (allOf merged), as rows. */
export function objectRows(doc: Document, schema: Node): FieldRow[] {
  const resolved = deref(doc, schema);
  const parts = [resolved, ...(resolved.allOf ?? []).map((part) => deref(doc, part))];
  const rows: FieldRow[] = [];
  for (const part of parts) {
    const required = new Set((part.required ?? []) as string[]);
    for (const [name, property] of Object.entries(part.properties ?? {})) {
      rows.push({ name, schema: property, required: required.has(name), owner: property });
    }
  }
  return rows;
}

/** The `<details>` with the fields of an object (or of an array's items, or of each alternative), if any. */
export function nestedFields(
  doc: Document,
  name: string,
  schema: Node | undefined,
  seen: ReadonlySet<string>,
  depth: number,
): string | undefined {
  if (!schema || depth >= 4) return undefined;
  let target = schema;
  let prefix = "";
  const resolvedOuter = deref(doc, schema);
  if (resolvedOuter.type === "array" || (Array.isArray(resolvedOuter.type) && resolvedOuter.type.includes("array"))) {
    if (!resolvedOuter.items) return undefined;
    target = resolvedOuter.items;
    prefix = "each item of ";
  }
  const ref = typeof target.$ref === "string" ? target.$ref : undefined;
  if (ref && seen.has(ref)) return undefined;
  const nextSeen = new Set(seen);
  if (ref) nextSeen.add(ref);
  const resolved = deref(doc, target);
  const link = ref?.startsWith("#/components/schemas/")
    ? ` (schema <a href="${schemaHref(refName(ref))}">${escapeHtml(refName(ref))}</a>)`
    : "";
  const rows = objectRows(doc, target);
  if (rows.length > 0) {
    return `<details class="fields-details"><summary>Fields of ${prefix}<code>${escapeHtml(name)}</code>${link}</summary>${fieldTable(doc, rows, nextSeen, depth + 1)}</details>`;
  }
  const alternatives = (resolved.oneOf ?? resolved.anyOf ?? []).filter(
    (alternative) => objectRows(doc, alternative).length > 0,
  );
  if (alternatives.length === 0) return undefined;
  const variants = alternatives.map((alternative, index) => {
    const title =
      typeof alternative.$ref === "string"
        ? refName(alternative.$ref)
        : (deref(doc, alternative).title ?? `variant ${index + 1}`);
    return `<details class="fields-details"><summary>${escapeHtml(String(title))}</summary>${fieldTable(doc, objectRows(doc, alternative), nextSeen, depth + 1)}</details>`;
  });
  return `<details class="fields-details"><summary>Fields of ${prefix}<code>${escapeHtml(name)}</code>${link}: one of ${alternatives.length}</summary>${variants.join("")}</details>`;
}

/** The fields table of a request or response body schema, with its alternatives and what else it admits. */
export function bodyFields(doc: Document, schema: Node | undefined): string {
  if (!schema) return "";
  const ref = typeof schema.$ref === "string" ? schema.$ref : undefined;
  const rows = objectRows(doc, schema);
  if (rows.length > 0) return fieldTable(doc, rows, new Set(ref ? [ref] : []));
  return nestedFields(doc, "body", schema, new Set(), 0) ?? "";
}
