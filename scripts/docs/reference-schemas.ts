// The schemas page of an API's reference (docs/reference/<api>/schemas.md): every named schema in full.
import { type ApiName, type Node, type Document, schemaAnchor } from "./document.js";
import { bodyFields, typeText } from "./fields.js";
import { code, container, jsonBlock, prose } from "./markdown.js";
import { squash, frontmatter, annotations, extensions } from "./reference-parts.js";

export function schemasPage(api: ApiName, doc: Document): string {
  const info = doc.info;
  const out: string[] = [
    ...frontmatter(`${info.title}: schemas`, ["outline: [2, 2]"]),
    ":::: v-pre",
    `# ${prose(info.title)}: schemas`,
    "",
    `The named schemas of \`specs/${api}.yaml\`. Each operation of the [reference](./) shows the fields it sends and receives; this page is the whole picture of each type.`,
    "",
  ];
  for (const [name, schema] of Object.entries((doc.components?.schemas ?? {}) as Record<string, Node>))
    out.push(schemaSection(doc, name, schema));
  out.push("::::", "");
  return squash(out);
}

function schemaSection(doc: Document, name: string, schema: Node): string {
  const out = [
    `## ${prose(name)} {#${schemaAnchor(name)}}`,
    "",
    `**Type:** ${typeText(schema.properties && !schema.type ? { ...schema, type: "object" } : schema)}`,
    "",
    prose(schema.description),
    "",
    annotations(schema),
    "",
    extensions(schema),
    "",
  ];
  const fields = bodyFields(doc, { $ref: `#/components/schemas/${name}` });
  if (fields) out.push(fields, "");
  if (schema.type === "object" || schema.properties) {
    const extra = schema.additionalProperties;
    if (extra === false) out.push("Closed: no other properties are allowed.", "");
    else if (extra && typeof extra === "object" && Object.keys(extra).length > 0)
      out.push(`Other properties: ${typeText(extra)}.`, "");
    else out.push("Open: other properties may appear.", "");
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const alternatives = schema[keyword];
    if (!alternatives || !alternatives.every((a) => Array.isArray(a.required) && Object.keys(a).length === 1)) continue;
    const names = alternatives.map((a) => (a.required as string[]).map(code).join(" and "));
    out.push(`Must carry ${keyword === "anyOf" ? "at least one" : "exactly one"} of: ${names.join(", ")}.`, "");
  }
  if (schema.if) out.push("Conditional: the allowed values depend on other fields; see the JSON Schema below.", "");
  const examples = (schema.examples ?? []) as unknown[];
  for (const example of examples) out.push(container("details", "Example", jsonBlock(example)), "");
  out.push(container("details", "JSON Schema", jsonBlock(schema)), "");
  return squash(out);
}
