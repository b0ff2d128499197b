// The reference page of one API, generated from its bundle: servers, authentication, every operation (grouped by
// tag) and webhook with its parameters, bodies, responses and named examples, then every schema. Quirks and gaps are
// shown where they apply; nothing here is written by hand.
import {
  type ApiName,
  deref,
  type DocOperation,
  type OpenApiDocument,
  operationAnchor,
  operationsOf,
  refName,
  schemaAnchor,
  securityAnchor,
  tagAnchor,
} from "./document.js";
import { cell, code, container, fenced, jsonBlock, prose, table } from "./markdown.js";

type Node = Record<string, any>;

const ANNOTATION_KEYS = new Set(["x-quirk", "x-undocumented"]);

/** The standalone Redoc page of an API, as served by the site. */
export const redocHref = (api: ApiName): string => `/redoc/${api}.html`;

export function renderReferencePage(api: ApiName, doc: OpenApiDocument): string {
  const info = doc.info as Node;
  const operations = operationsOf(doc);
  const out: string[] = [
    "---",
    `title: ${JSON.stringify(`${info.title} reference`)}`,
    "outline: [2, 3]",
    "---",
    "",
    // v-pre: spec text is never read as a Vue template, whatever braces it contains.
    ":::: v-pre",
    `# ${prose(info.title)} <span class="api-version">${prose(String(info.version))}</span>`,
    "",
  ];
  if (info.summary) out.push(`<p class="api-summary">${prose(info.summary)}</p>`, "");
  out.push(
    `Generated from \`specs/${api}.yaml\`. Also: the [guide](/guide/${api}), the [quirks](./quirks), the [gaps](./gaps) and the ` +
      `<a href="${redocHref(api)}" target="_blank">standalone reference (Redoc)</a>, which works offline.`,
    "",
    prose(info.description),
    "",
  );
  if (info.license) out.push(`**License:** ${info.license.url ? `[${prose(info.license.name)}](${info.license.url})` : prose(info.license.name)}`, "");
  out.push(annotations(info), "", extensions(info), "");

  out.push("## Servers", "", serversTable(doc), "");
  out.push(...securitySection(doc));

  const tags: Node[] = (doc.tags as Node[] | undefined) ?? [];
  const byTag = new Map<string, DocOperation[]>();
  for (const op of operations.filter((o) => !o.webhook)) {
    const tag = (op.operation.tags as string[] | undefined)?.[0] ?? "other";
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  for (const [tag, ops] of byTag) {
    const tagObject = tags.find((t) => t.name === tag);
    out.push(`## ${prose(tag)} {#${tagAnchor(tag)}}`, "", prose(tagObject?.description), "");
    for (const op of ops) out.push(operationSection(doc, op));
  }
  const webhooks = operations.filter((o) => o.webhook);
  if (webhooks.length > 0) {
    out.push(
      "## Webhooks {#webhooks}",
      "",
      "Requests that the provider sends to **your** server. The request body is what you receive; the responses are what you answer.",
      "",
    );
    for (const op of webhooks) out.push(operationSection(doc, op));
  }
  const schemas = Object.entries((doc.components?.schemas ?? {}) as Record<string, Node>);
  if (schemas.length > 0) {
    out.push("## Schemas {#schemas}", "");
    for (const [name, schema] of schemas) out.push(schemaSection(name, schema));
  }
  out.push("::::", "");
  return out.filter((part, index, all) => !(part === "" && all[index - 1] === "")).join("\n");
}

function serversTable(doc: OpenApiDocument): string {
  const rows = (doc.servers ?? []).map((server) => {
    const variables = Object.entries(server.variables ?? {})
      .map(([name, variable]) => `${code(`{${name}}`)} (default ${code(variable.default)}${(variable as Node).description ? `: ${cell((variable as Node).description)}` : ""})`)
      .join("; ");
    return [code(server.url), cell(server.description) + (variables ? ` Variables: ${variables}` : "")];
  });
  return table(["URL", "Description"], rows);
}

function securitySection(doc: OpenApiDocument): string[] {
  const schemes = Object.entries((doc.components?.securitySchemes ?? {}) as Record<string, Node>);
  if (schemes.length === 0) return [];
  const out = ["## Authentication {#authentication}", ""];
  for (const [name, scheme] of schemes) {
    out.push(`### ${prose(name)} {#${securityAnchor(name)}}`, "");
    const facts = [`**Type:** ${code(scheme.type)}`];
    if (scheme.scheme) facts.push(`**Scheme:** ${code(scheme.scheme)}`);
    if (scheme.in) facts.push(`**In:** ${scheme.in} ${code(scheme.name)}`);
    if (scheme.openIdConnectUrl) facts.push(`**Discovery:** ${code(scheme.openIdConnectUrl)}`);
    out.push(facts.join(" · "), "", prose(scheme.description), "");
    for (const [flowName, flow] of Object.entries((scheme.flows ?? {}) as Record<string, Node>)) {
      const urls = ["authorizationUrl", "tokenUrl", "refreshUrl"].filter((key) => flow[key]).map((key) => `${key} ${code(flow[key])}`);
      out.push(`**Flow ${code(flowName)}:** ${urls.join(", ")}`, "");
      const scopes = Object.entries((flow.scopes ?? {}) as Record<string, string>);
      if (scopes.length > 0) out.push(table(["Scope", "Grants"], scopes.map(([scope, text]) => [code(scope), cell(text)])), "");
    }
    out.push(annotations(scheme), "", extensions(scheme), "");
  }
  return out;
}

function securityText(doc: OpenApiDocument, op: DocOperation): string {
  const requirements = (op.operation.security ?? doc.security) as Array<Record<string, string[]>> | undefined;
  if (requirements === undefined) return "";
  if (requirements.length === 0 || requirements.every((r) => Object.keys(r).length === 0)) {
    return op.webhook ? "**Authentication:** no security scheme is declared for this webhook." : "**Authentication:** none (public).";
  }
  const alternatives = requirements.map((requirement) =>
    Object.entries(requirement)
      .map(([name, scopes]) => `[${code(name)}](#${securityAnchor(name)})${scopes.length > 0 ? ` (scopes ${scopes.map(code).join(", ")})` : ""}`)
      .join(" and "),
  );
  return `**Authentication:** ${alternatives.join(" or ")}.`;
}

function operationSection(doc: OpenApiDocument, op: DocOperation): string {
  const operation = op.operation as Node;
  const target = op.webhook ? `webhook <code>${op.path}</code>` : `<code>${op.path}</code>`;
  const out: string[] = [
    `### ${prose(operation.summary ?? op.operationId)} {#${operationAnchor(op.operationId)}}`,
    "",
    `<p class="operation-signature"><span class="http-method ${op.method}">${op.method.toUpperCase()}</span> ${target} <span class="operation-id">operationId <code>${op.operationId}</code></span></p>`,
    "",
    prose(operation.description),
    "",
    annotations(operation),
    "",
    securityText(doc, op),
    "",
    extensions(operation),
    "",
  ];
  const parameters = ((operation.parameters ?? []) as Node[]).map((p) => deref(doc, p) as Node);
  if (parameters.length > 0) {
    out.push("#### Parameters", "", table(["Name", "In", "Type", "Required", "Description"], parameters.map((p) => parameterRow(doc, p))), "");
  }
  if (operation.requestBody) {
    const body = deref(doc, operation.requestBody) as Node;
    out.push(`#### Request body${body.required ? "" : " (optional)"}`, "", prose(body.description), "", annotations(body), "");
    out.push(...contentBlocks(doc, body.content));
  }
  const responses = Object.entries((operation.responses ?? {}) as Record<string, Node>);
  if (responses.length > 0) {
    out.push(op.webhook ? "#### Your responses" : "#### Responses", "");
    for (const [status, reference] of responses) {
      const response = deref(doc, reference) as Node;
      out.push(`##### ${status === "default" ? "default (any other status)" : status}`, "", prose(response.description), "", annotations(response), "");
      const headers = Object.entries((response.headers ?? {}) as Record<string, Node>).map(([name, header]) => [name, deref(doc, header) as Node] as const);
      if (headers.length > 0) {
        out.push(
          table(
            ["Header", "Type", "Required", "Description"],
            headers.map(([name, header]) => [code(name), typeText(header.schema ?? {}), header.required ? "yes" : "no", describe(header, header.schema, exampleValues(doc, header))]),
          ),
          "",
        );
      }
      out.push(...contentBlocks(doc, response.content));
    }
  }
  return out.filter((part, index, all) => !(part === "" && all[index - 1] === "")).join("\n");
}

function parameterRow(doc: OpenApiDocument, parameter: Node): string[] {
  const schema = (parameter.schema ?? {}) as Node;
  return [code(parameter.name), parameter.in, typeText(schema), parameter.required ? "yes" : "no", describe(parameter, schema, exampleValues(doc, parameter))];
}

/** A table cell describing a parameter, header or property: text, constraints, examples, quirk and gaps. */
function describe(owner: Node, schema: Node | undefined, examples: unknown[] = []): string {
  const parts = [cell(owner.description ?? schema?.description)];
  const constraintText = schema ? constraints(schema, examples.length === 0) : "";
  if (constraintText) parts.push(constraintText);
  if (examples.length > 0) parts.push(`Example: ${examples.map((e) => code(typeof e === "string" ? e : JSON.stringify(e)).replaceAll("|", "\\|")).join(", ")}`);
  for (const node of schema && schema !== owner ? [owner, schema] : [owner]) {
    if (typeof node["x-quirk"] === "string") parts.push(`**Quirk:** ${cell(node["x-quirk"])}`);
    for (const gap of (node["x-undocumented"] ?? []) as string[]) parts.push(`**Not documented:** ${cell(gap)}`);
  }
  return parts.filter(Boolean).join("<br>");
}

function exampleValues(doc: OpenApiDocument, owner: Node): unknown[] {
  if ("example" in owner) return [owner.example];
  return Object.values((owner.examples ?? {}) as Record<string, Node>).map((e) => (deref(doc, e) as Node).value);
}

function contentBlocks(doc: OpenApiDocument, content: Record<string, Node> | undefined): string[] {
  const out: string[] = [];
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    const schema = (media.schema ?? {}) as Node;
    out.push(`Body ${code(mediaType)}: ${typeText(schema)}`, "");
    if (!schema.$ref && (schema.properties || schema.oneOf || schema.anyOf)) out.push(...schemaDetails(schema));
    for (const [name, reference] of Object.entries((media.examples ?? {}) as Record<string, Node>)) {
      const example = deref(doc, reference) as Node;
      const title = `Example ${code(name)}${example.summary ? `: ${prose(example.summary)}` : ""}`;
      out.push(title, "", example.description ? `${prose(example.description)}\n` : "", exampleBlock(mediaType, example.value), "");
    }
    if ("example" in media) out.push("Example", "", exampleBlock(mediaType, media.example), "");
  }
  return out;
}

function exampleBlock(mediaType: string, value: unknown): string {
  if (typeof value === "string") return fenced(mediaType.includes("html") ? "html" : "text", value);
  return jsonBlock(value);
}

function schemaSection(name: string, schema: Node): string {
  const out = [
    `### ${prose(name)} {#${schemaAnchor(name)}}`,
    "",
    `**Type:** ${typeText(schema, true)}`,
    "",
    prose(schema.description),
    "",
    annotations(schema),
    "",
    extensions(schema),
    "",
  ];
  out.push(...schemaDetails(schema));
  const examples = (schema.examples ?? []) as unknown[];
  for (const example of examples) out.push(examples.length > 1 ? "Example" : "**Example**", "", jsonBlock(example), "");
  out.push(container("details", "JSON Schema", jsonBlock(schema)), "");
  return out.filter((part, index, all) => !(part === "" && all[index - 1] === "")).join("\n");
}

/** The property table of an object schema (nested inline objects flattened as `a.b`), or its alternatives. */
function schemaDetails(schema: Node): string[] {
  const out: string[] = [];
  const rows = propertyRows(schema, "");
  if (rows.length > 0) out.push(table(["Property", "Type", "Required", "Description"], rows), "");
  if (schema.type === "object" || schema.properties) {
    const extra = schema.additionalProperties;
    if (extra === false) out.push("Closed: no other properties are allowed.", "");
    else if (extra && typeof extra === "object" && Object.keys(extra).length > 0) out.push(`Other properties: ${typeText(extra)}.`, "");
    else out.push("Open: other properties may appear.", "");
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const alternatives = schema[keyword] as Node[] | undefined;
    if (!alternatives || alternatives.every((a) => a.$ref || a.type || "const" in a)) continue;
    const requiredOnly = alternatives.every((a) => Array.isArray(a.required) && Object.keys(a).length === 1);
    if (requiredOnly) {
      const names = alternatives.map((a) => (a.required as string[]).map(code).join(" and "));
      out.push(`Must carry ${keyword === "anyOf" ? "at least one" : "exactly one"} of: ${names.join(", ")}.`, "");
    }
  }
  if (schema.if) out.push("Conditional: the allowed values depend on other fields; see the JSON Schema below.", "");
  return out;
}

function propertyRows(schema: Node, prefix: string): string[][] {
  const rows: string[][] = [];
  const required = new Set((schema.required ?? []) as string[]);
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Node>)) {
    const path = `${prefix}${name}`;
    rows.push([code(path), typeText(property), required.has(name) ? "yes" : "no", describe(property, property)]);
    if (!property.$ref && property.properties) rows.push(...propertyRows(property, `${path}.`));
    if (!property.$ref && property.items && !property.items.$ref && property.items.properties) rows.push(...propertyRows(property.items, `${path}[].`));
  }
  return rows;
}

/** A readable type: `string (uri)`, `array of [Order](#schema-Order)`, `"0"`, `string or null`. */
function typeText(schema: Node | boolean | undefined, topLevel = false): string {
  if (schema === undefined || schema === true) return "any";
  if (schema === false) return "nothing";
  if (typeof schema.$ref === "string") return schema.$ref.startsWith("#/components/schemas/") ? `[${refName(schema.$ref)}](#${schemaAnchor(refName(schema.$ref))})` : code(schema.$ref);
  if ("const" in schema) return code(JSON.stringify(schema.const));
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v: unknown) => code(JSON.stringify(v))).join(", ")}`;
  const alternatives = (schema.oneOf ?? schema.anyOf) as Node[] | undefined;
  if (alternatives && alternatives.every((a) => a.$ref || a.type || "const" in a)) return alternatives.map((a) => typeText(a)).join(" or ");
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties || topLevel ? (schema.properties ? "object" : "any") : "any";
  return types
    .map((type) => {
      if (type === "array") return `array of ${typeText(schema.items)}`;
      if (type === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object" && !schema.properties) {
        return `object (map of string to ${typeText(schema.additionalProperties)})`;
      }
      return schema.format && type !== "null" ? `${type} (${schema.format})` : type;
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

function constraints(schema: Node, withExamples: boolean): string {
  const parts = CONSTRAINTS.filter(([key]) => key in schema).map(([key, label]) => {
    const value = schema[key];
    return `${label} ${code(typeof value === "string" ? value : JSON.stringify(value)).replaceAll("|", "\\|")}`;
  });
  if (schema.contentSchema?.$ref) parts.push(`Decoded content: ${typeText(schema.contentSchema)}`);
  if (withExamples && Array.isArray(schema.examples) && schema.examples.length > 0 && !("properties" in schema)) {
    parts.push(`Examples: ${schema.examples.map((e: unknown) => code(typeof e === "string" ? e : JSON.stringify(e)).replaceAll("|", "\\|")).join(", ")}`);
  }
  return parts.join("; ");
}

/** The quirk and gaps of one node, as callouts. */
function annotations(node: Node): string {
  const parts: string[] = [];
  if (typeof node["x-quirk"] === "string") parts.push(container("warning", "Quirk", prose(node["x-quirk"])));
  const gaps = (node["x-undocumented"] ?? []) as string[];
  if (gaps.length > 0) parts.push(container("info", "Not documented", gaps.map((gap) => `- ${prose(gap)}`).join("\n")));
  return parts.join("\n\n");
}

/** Other `x-` extensions of a node (e.g. `x-rate-limit`, `x-reply-rules`), shown as they are. */
function extensions(node: Node): string {
  const entries = Object.entries(node).filter(([key]) => key.startsWith("x-") && !ANNOTATION_KEYS.has(key));
  return entries.map(([key, value]) => `**${code(key)}**\n\n${jsonBlock(value)}`).join("\n\n");
}
