// The reference of one API, generated from its bundle, as several pages (docs/reference/<api>/):
//   index.md     overview: servers, authentication, the headers on every response, errors, the spec download,
//                for pay a worked signing example, and the list of operations
//   <tag>.md     the operations of one tag: code samples, fields, responses, quirks/gaps/assumptions, a console
//   webhooks.md  the webhooks, if any
//   schemas.md   every schema
// Nothing here is written by hand: it all comes from the bundle and its readers' copy (reader-bundle.ts).
import { hmacSha256Signer } from "../../lib/pay-signature.js";
import { DEMO_CREDENTIALS, typeNamesOf } from "./code-samples.js";
import {
  type ApiName,
  deref,
  type DocOperation,
  type OpenApiDocument,
  operationAnchor,
  operationHref,
  operationPage,
  operationsOf,
  responseAnchor,
  schemaAnchor,
  securityAnchor,
} from "./document.js";
import { bodyFields, type FieldRow, fieldTable, inlineHtml, nodeNotes, typeText } from "./fields.js";
import { cell, code, container, fenced, jsonBlock, prose, table } from "./markdown.js";
import { noteLabel, notesOf, type OperationNote } from "./operation-notes.js";
import { readerBundle, samplesOf } from "./reader-bundle.js";

type Node = Record<string, any>;

const ANNOTATION_KEYS = new Set(["x-quirk", "x-undocumented", "x-assumption", "x-codeSamples"]);

/** The standalone Redoc page of an API, as served by the site. */
export const redocHref = (api: ApiName): string => `/redoc/${api}.html`;
/** The bundled contract, offered for download. */
export const specHref = (api: ApiName): string => `/specs/${api}.json`;

/** What our typed client of each API does with an error (see clients/). */
const CLIENT_ERRORS: Record<ApiName, string> = {
  identity:
    "`createIdentityClient` is built on openid-client, which throws its `ResponseBodyError` for an OAuth error body (`error`, " +
    "`error_description`) and `WWWAuthenticateChallengeError` for a userinfo refusal; an id_token that does not verify throws jose's errors.",
  links:
    "`createLinksClient` throws `LinksApiError` (`status`, `body`, `operation`) for every envelope with `error: 1`, whatever the HTTP status; " +
    "with the rate limiter on (the default) it waits for `X-RateLimit-Reset` instead of being refused.",
  catalog:
    "`createCatalogClient` throws `CatalogScopeError` (`missingScope`, `body`, `operation`) on 403; other errors are returned as `error` " +
    "of the openapi-fetch result. Writes are retried with the same `Idempotency-Key` after a network error or a 5xx.",
  pay:
    "`createPayClient` throws `PayApiError` (`status`, `type`, `desc`, `operation`) whenever the envelope's `type` is not `success`, " +
    "whatever the HTTP status.",
};

const BADGE_CLASS: Record<OperationNote["kind"], string> = { quirk: "warning", gap: "info", assumption: "tip" };
const BADGE_WORDS: Record<OperationNote["kind"], [string, string]> = { quirk: ["quirk", "quirks"], gap: ["gap", "gaps"], assumption: ["assumption", "assumptions"] };

/** Badges for the notes of an operation: "3 quirks", "2 gaps", "1 assumption". */
function badges(notes: OperationNote[]): string {
  return (["quirk", "gap", "assumption"] as const)
    .map((kind) => {
      const count = notes.filter((note) => note.kind === kind).length;
      if (count === 0) return "";
      const [one, many] = BADGE_WORDS[kind];
      return `<span class="VPBadge ${BADGE_CLASS[kind]} note-badge" data-kind="${kind}">${count} ${count === 1 ? one : many}</span>`;
    })
    .filter(Boolean)
    .join(" ");
}

const squash = (parts: string[]): string => parts.filter((part, index, all) => !(part === "" && all[index - 1] === "")).join("\n");

function frontmatter(title: string, extra: string[] = []): string[] {
  return ["---", `title: ${JSON.stringify(title)}`, ...extra, "---", ""];
}

/** Every reference page of the API: page name (without `.md`) to markdown. */
export function renderReferencePages(api: ApiName, contract: OpenApiDocument): Map<string, string> {
  const doc = readerBundle(api, contract);
  const pages = new Map<string, string>();
  pages.set("index", overviewPage(api, contract));
  const byPage = new Map<string, DocOperation[]>();
  for (const op of operationsOf(doc)) byPage.set(operationPage(op), [...(byPage.get(operationPage(op)) ?? []), op]);
  const shared = sharedResponseHeaders(contract);
  for (const [page, ops] of byPage) pages.set(page, operationsPage(api, contract, page, ops, shared));
  pages.set("schemas", schemasPage(api, contract));
  return pages;
}

/** The pages of the reference in reading order, with their titles (for the sidebar). */
export function referencePageList(contract: OpenApiDocument): Array<{ page: string; title: string }> {
  const list: Array<{ page: string; title: string }> = [];
  for (const op of operationsOf(contract)) {
    const page = operationPage(op);
    if (list.some((entry) => entry.page === page)) continue;
    list.push({ page, title: op.webhook ? "Webhooks" : `${capitalise((op.operation.tags as string[] | undefined)?.[0] ?? "other")}` });
  }
  return [...list, { page: "schemas", title: "Schemas" }];
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

// ---------------------------------------------------------------- overview

function overviewPage(api: ApiName, doc: OpenApiDocument): string {
  const info = doc.info as Node;
  const out: string[] = [
    ...frontmatter(`${info.title} reference`, ["outline: [2, 3]"]),
    // v-pre: spec text is never read as a Vue template, whatever braces it contains.
    ":::: v-pre",
    `# ${prose(info.title)} <span class="api-version">${prose(String(info.version))}</span>`,
    "",
  ];
  if (info.summary) out.push(`<p class="api-summary">${prose(info.summary)}</p>`, "");
  out.push(
    `Generated from \`specs/${api}.yaml\`. Also: the [guide](/guide/${api}), the [quirks](./quirks), the [gaps](./gaps), the ` +
      `<a href="${redocHref(api)}" target="_blank">standalone reference (Redoc)</a>, which works offline, and the ` +
      `<a href="${specHref(api)}" download="${api}.openapi.json" target="_blank">OpenAPI document (JSON)</a> to download.`,
    "",
    prose(info.description),
    "",
  );
  if (info.license) out.push(`**License:** ${info.license.url ? `[${prose(info.license.name)}](${info.license.url})` : prose(info.license.name)}`, "");
  out.push(annotations(info), "", extensions(info), "");
  out.push("## Operations {#operations}", "", operationsIndex(doc), "");
  out.push("## Servers {#servers}", "", serversTable(doc), "");
  out.push(
    "Every operation page has a console (**Try it**) that sends the call from your browser to the local Prism mock or the stateful sandbox, " +
      "with the sandbox's demo credentials filled in. Start them with `npx contracts mock` and `npx contracts sandbox`.",
    "",
  );
  out.push(...securitySection(doc));
  out.push(...sharedHeadersSection(doc));
  out.push(...errorsSection(api, doc));
  if (api === "pay") out.push(...signingSection());
  out.push("::::", "");
  return squash(out);
}

function htmlTable(headers: string[], rows: string[][], className: string): string {
  const body = rows.map((row) => `<tr>${row.map((value, i) => `<td data-label="${headers[i]}">${value}</td>`).join("")}</tr>`).join("");
  return `<table class="${className}"><thead><tr>${headers.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>${body}</tbody></table>`;
}

function operationsIndex(doc: OpenApiDocument): string {
  const rows = operationsOf(doc).map((op) => {
    const target = op.webhook ? `webhook <code>${op.path}</code>` : `<span class="http-method ${op.method}">${op.method.toUpperCase()}</span> <code>${op.path}</code>`;
    return [
      `<a href="${operationHref(doc, op.operationId)}"><code>${op.operationId}</code></a>`,
      target,
      inlineHtml(op.operation.summary as string | undefined),
      badges(notesOf(doc, op)),
    ];
  });
  return htmlTable(["Operation", "Request", "Summary", "Notes"], rows, "operations-index");
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

/** Response headers that every response of every operation carries (links: X-RateLimit-*), explained once. */
export function sharedResponseHeaders(doc: OpenApiDocument): Map<string, Node> {
  const responses = operationsOf(doc)
    .filter((op) => !op.webhook)
    .flatMap((op) => Object.values((op.operation.responses ?? {}) as Record<string, Node>).map((r) => deref(doc, r) as Node));
  const shared = new Map<string, Node>();
  if (responses.length === 0) return shared;
  for (const [name, header] of Object.entries((responses[0]!.headers ?? {}) as Record<string, Node>)) {
    if (responses.every((response) => response.headers && name in response.headers)) shared.set(name, deref(doc, header) as Node);
  }
  return shared;
}

function headerRows(doc: OpenApiDocument, headers: Array<[string, Node]>): FieldRow[] {
  return headers.map(([name, header]) => ({ name, schema: header.schema, required: header.required === true, owner: header }));
}

function sharedHeadersSection(doc: OpenApiDocument): string[] {
  const shared = sharedResponseHeaders(doc);
  if (shared.size === 0) return [];
  return [
    "## Headers on every response {#response-headers}",
    "",
    "Every response of every operation carries these headers; the operation pages do not repeat them.",
    "",
    fieldTable(doc, headerRows(doc, [...shared])),
    "",
  ];
}

const isErrorStatus = (status: string): boolean => status === "default" || /^[45]/.test(status);

function errorsSection(api: ApiName, doc: OpenApiDocument): string[] {
  const out = ["## Errors {#errors}", ""];
  const envelope = doc["x-error-envelope"] as { property: string; success: unknown[] } | undefined;
  if (envelope) {
    out.push(
      `**Envelope:** a response is an error when its HTTP status is 400 or more, or when its JSON body is an object whose ${code(envelope.property)} ` +
        `is present with a value other than ${envelope.success.map((value) => code(JSON.stringify(value))).join(" or ")} (\`x-error-envelope\`).`,
      "",
    );
  }
  const byStatus = new Map<string, { description: string; types: Set<string>; ops: DocOperation[] }>();
  const errorTypes = new Set<string>();
  for (const op of operationsOf(doc).filter((o) => !o.webhook)) {
    for (const [status, reference] of Object.entries((op.operation.responses ?? {}) as Record<string, Node>)) {
      if (!isErrorStatus(status)) continue;
      const response = deref(doc, reference) as Node;
      const entry = byStatus.get(status) ?? { description: String(response.description ?? ""), types: new Set<string>(), ops: [] };
      for (const media of Object.values((response.content ?? {}) as Record<string, Node>)) {
        entry.types.add(typeText(media.schema));
        errorTypes.add(typeText(media.schema));
      }
      entry.ops.push(op);
      byStatus.set(status, entry);
    }
  }
  const rows = [...byStatus].map(([status, entry]) => [
    `<code>${status}</code>`,
    inlineHtml(entry.description),
    inlineHtml([...entry.types].join(", ")),
    entry.ops.map((op) => `<a href="${operationHref(doc, op.operationId)}-${status}">${op.operationId}</a>`).join(", "),
  ]);
  if (!envelope && errorTypes.size > 0) out.push(`**Envelope:** error responses carry ${[...errorTypes].join(" or ")}, by status as below.`, "");
  out.push(htmlTable(["Status", "Meaning", "Body", "Operations"], rows, "errors"), "");
  out.push(`**What the client throws:** ${prose(CLIENT_ERRORS[api])}`, "");
  return out;
}

/** The test vector of the pay signature: fixed body bytes, the sandbox's demo key, the header our signer computes. */
export function payTestVector(): { key: string; body: string; hmac: string; header: string } {
  const body = JSON.stringify({ shop_id: DEMO_CREDENTIALS.pay.shopId, nonce: 1709391600001, page: 1 });
  const header = hmacSha256Signer(DEMO_CREDENTIALS.pay.apiKey)(new TextEncoder().encode(body)) as string;
  return { key: DEMO_CREDENTIALS.pay.apiKey, body, hmac: header.replace(/^Bearer /, ""), header };
}

function signingSection(): string[] {
  const vector = payTestVector();
  const bytes = new TextEncoder().encode(vector.body);
  return [
    "## Signing a request: a worked example {#signing}",
    "",
    "The signature scheme is not in the provider's documents we were given (a gap); our clients' default signer " +
      "(`lib/pay-signature.ts`) follows the provider's public documentation: HMAC-SHA256 of the exact body bytes, keyed with the API key, " +
      "hex-encoded, sent as `Authorization: Bearer <hex>`. This test vector is computed by that signer at build time and recomputed by " +
      "the docs tests with WebCrypto; the console on each operation page signs the same way in your browser.",
    "",
    `<dl class="signing-vector">` +
      `<dt>1. Body bytes (${bytes.length} bytes, UTF-8)</dt><dd><code data-vector="body">${vector.body.replaceAll("&", "&amp;").replaceAll("<", "&lt;")}</code></dd>` +
      `<dt>2. Key (the sandbox's demo API key of shop ${DEMO_CREDENTIALS.pay.shopId})</dt><dd><code data-vector="key">${vector.key}</code></dd>` +
      `<dt>3. HMAC-SHA256(key, body), hex</dt><dd><code data-vector="hmac">${vector.hmac}</code></dd>` +
      `<dt>4. Authorization header</dt><dd><code data-vector="header">Authorization: ${vector.header}</code></dd>` +
      `</dl>`,
    "",
    "The same in a shell:",
    "",
    fenced("sh", `printf '%s' '${vector.body}' | openssl dgst -sha256 -hmac '${vector.key}' -hex | sed 's/^.* //'\n# ${vector.hmac}`),
    "",
    "Sign the bytes you send: serialising the JSON again (another key order, other spacing) changes the signature, and every request needs a fresh, increasing `nonce`.",
    "",
  ];
}

// ---------------------------------------------------------------- operations

/** A page of operations; `ops` come from the readers' copy (with their samples). */
function operationsPage(api: ApiName, contract: OpenApiDocument, page: string, ops: DocOperation[], shared: Map<string, Node>): string {
  const info = contract.info as Node;
  const webhooks = page === "webhooks";
  const tag = webhooks ? undefined : ((ops[0]!.operation.tags as string[] | undefined)?.[0] ?? "other");
  const tagObject = ((contract.tags as Node[] | undefined) ?? []).find((t) => t.name === tag);
  const title = webhooks ? `${info.title}: webhooks` : `${info.title}: ${tag}`;
  const out: string[] = [...frontmatter(title, ["outline: [2, 2]"]), ":::: v-pre", `# ${prose(title)}`, ""];
  if (webhooks) out.push("Requests that the provider sends to **your** server. The request body is what you receive; the responses are what you answer.", "");
  else out.push(prose(tagObject?.description), "", annotations(tagObject ?? {}), "");
  out.push(`Part of the [${prose(info.title)} reference](./): see there the servers, authentication, errors${shared.size > 0 ? " and the headers on every response" : ""}.`, "");
  out.push("::::", "");
  for (const op of ops) out.push(operationSection(api, contract, op, shared));
  return squash(out);
}

function securityText(doc: OpenApiDocument, op: DocOperation): string {
  const requirements = (op.operation.security ?? doc.security) as Array<Record<string, string[]>> | undefined;
  if (requirements === undefined) return "";
  if (requirements.length === 0 || requirements.every((r) => Object.keys(r).length === 0)) {
    return op.webhook ? "**Authentication:** no security scheme is declared for this webhook." : "**Authentication:** none (public).";
  }
  const alternatives = requirements.map((requirement) =>
    Object.entries(requirement)
      .map(([name, scopes]) => `[${code(name)}](./#${securityAnchor(name)})${scopes.length > 0 ? ` (scopes ${scopes.map(code).join(", ")})` : ""}`)
      .join(" and "),
  );
  return `**Authentication:** ${alternatives.join(" or ")}.`;
}

function notesBlock(notes: OperationNote[]): string {
  if (notes.length === 0) return "";
  const items = notes.map((note) => `- **${noteLabel(note.kind)}** (${prose(note.where)}): ${prose(note.text.trim()).replace(/\n+/g, " ")}`);
  return container("warning", "Quirks, gaps and assumptions that apply here", items.join("\n"));
}

function operationSection(api: ApiName, contract: OpenApiDocument, op: DocOperation, shared: Map<string, Node>): string {
  // The samples come from the readers' copy; the rest from the contract's operation (whose description does not
  // carry the list of notes that the copy appends for Redoc: the page shows them in a callout of its own).
  const samples = samplesOf(op.operation);
  const original = operationsOf(contract).find((o) => o.operationId === op.operationId)!;
  const operation = original.operation as Node;
  const notes = notesOf(contract, original);
  const anchor = operationAnchor(op.operationId);
  const target = op.webhook ? `webhook <code>${op.path}</code>` : `<code>${op.path}</code>`;
  const heading = `${op.operationId}${operation.summary ? `: ${prose(operation.summary)}` : ""}`;
  const out: string[] = [
    ":::: v-pre",
    `## ${heading} ${badges(notes)} {#${anchor}}`,
    "",
    `<p class="operation-signature"><span class="http-method ${op.method}">${op.method.toUpperCase()}</span> ${target} ` +
      `<button type="button" class="copy-link" data-anchor="${anchor}" title="Copy a link to this operation">Copy link</button></p>`,
    "",
    prose(operation.description),
    "",
    notesBlock(notes),
    "",
    securityText(contract, original),
    "",
    extensions(operation),
    "",
  ];
  out.push(`### Code {#${anchor}-code}`, "", "::: code-group");
  for (const sample of samples) out.push(fenced(`${sample.lang === "Shell" ? "sh" : "ts"} [${sample.label}]`, sample.source));
  out.push(":::", "");
  const names = typeNamesOf(contract, original);
  const typeParts = [
    ...(names.request ? [`request body ${code(names.request)}`] : []),
    ...names.responses.map(({ status, type }) => `${status} ${code(type)}`),
  ];
  if (typeParts.length > 0) out.push(`**Generated types** (\`@platform/contracts/${api}\`): ${typeParts.join(" · ")}`, "");

  const parameters = ((operation.parameters ?? []) as Node[]).map((p) => deref(contract, p) as Node);
  if (parameters.length > 0) {
    const rows: FieldRow[] = parameters.map((p) => ({ name: `${p.name} (${p.in})`, schema: p.schema, required: p.required === true, owner: p }));
    out.push(`### Parameters {#${anchor}-parameters}`, "", fieldTable(contract, rows), "");
  }
  if (operation.requestBody) {
    const body = deref(contract, operation.requestBody) as Node;
    out.push(`### Request body${body.required ? "" : " (optional)"} {#${anchor}-request}`, "", prose(body.description), "", annotations(body), "");
    out.push(...contentBlocks(contract, body.content));
  }
  const responses = Object.entries((operation.responses ?? {}) as Record<string, Node>);
  if (responses.length > 0) {
    out.push(`### ${op.webhook ? "Your responses" : "Responses"} {#${anchor}-responses}`, "");
    if (shared.size > 0 && !op.webhook) out.push(`Every response also carries the [headers on every response](./#response-headers) (${[...shared.keys()].map(code).join(", ")}).`, "");
    for (const [status, reference] of responses) {
      const response = deref(contract, reference) as Node;
      out.push(`#### ${status === "default" ? "default (any other status)" : status} {#${responseAnchor(op.operationId, status)}}`, "", prose(response.description), "", annotations(response), "");
      const headers = Object.entries((response.headers ?? {}) as Record<string, Node>)
        .filter(([name]) => op.webhook || !shared.has(name))
        .map(([name, header]) => [name, deref(contract, header) as Node] as [string, Node]);
      if (headers.length > 0) out.push("Headers:", "", fieldTable(contract, headerRows(contract, headers)), "");
      out.push(...contentBlocks(contract, response.content));
    }
  }
  out.push("::::", "");
  if (!op.webhook) out.push(`<TryIt api="${api}" operation-id="${op.operationId}" />`, "");
  return squash(out);
}

function contentBlocks(doc: OpenApiDocument, content: Record<string, Node> | undefined): string[] {
  const out: string[] = [];
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    const schema = (media.schema ?? {}) as Node;
    out.push(`Body ${code(mediaType)}: ${typeText(schema)}`, "");
    const resolved = deref(doc, schema) as Node;
    const notes = nodeNotes(resolved);
    if (notes.length > 0) out.push(notes.join("<br>\n"), "");
    const fields = bodyFields(doc, schema);
    if (fields) out.push(fields, "");
    const examples = Object.entries((media.examples ?? {}) as Record<string, Node>).map(([name, reference]) => [name, deref(doc, reference) as Node] as const);
    if ("example" in media) examples.push(["example", { value: media.example }]);
    for (const [name, example] of examples) {
      const title = `Example ${name}${example.summary ? `: ${cell(example.summary)}` : ""}`;
      out.push(container("details", title, `${example.description ? `${prose(example.description)}\n\n` : ""}${exampleBlock(mediaType, example.value)}`), "");
    }
  }
  return out;
}

function exampleBlock(mediaType: string, value: unknown): string {
  if (typeof value === "string") return fenced(mediaType.includes("html") ? "html" : "text", value);
  return jsonBlock(value);
}

// ---------------------------------------------------------------- schemas

function schemasPage(api: ApiName, doc: OpenApiDocument): string {
  const info = doc.info as Node;
  const out: string[] = [
    ...frontmatter(`${info.title}: schemas`, ["outline: [2, 2]"]),
    ":::: v-pre",
    `# ${prose(info.title)}: schemas`,
    "",
    `The named schemas of \`specs/${api}.yaml\`. Each operation of the [reference](./) shows the fields it sends and receives; this page is the whole picture of each type.`,
    "",
  ];
  for (const [name, schema] of Object.entries((doc.components?.schemas ?? {}) as Record<string, Node>)) out.push(schemaSection(doc, name, schema));
  out.push("::::", "");
  return squash(out);
}

function schemaSection(doc: OpenApiDocument, name: string, schema: Node): string {
  const out = [`## ${prose(name)} {#${schemaAnchor(name)}}`, "", `**Type:** ${typeText(schema.properties && !schema.type ? { ...schema, type: "object" } : schema)}`, "", prose(schema.description), "", annotations(schema), "", extensions(schema), ""];
  const fields = bodyFields(doc, { $ref: `#/components/schemas/${name}` });
  if (fields) out.push(fields, "");
  if (schema.type === "object" || schema.properties) {
    const extra = schema.additionalProperties;
    if (extra === false) out.push("Closed: no other properties are allowed.", "");
    else if (extra && typeof extra === "object" && Object.keys(extra).length > 0) out.push(`Other properties: ${typeText(extra)}.`, "");
    else out.push("Open: other properties may appear.", "");
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const alternatives = schema[keyword] as Node[] | undefined;
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

// ---------------------------------------------------------------- shared

/** The quirk, gaps and assumption of one node, as callouts. */
function annotations(node: Node): string {
  const parts: string[] = [];
  if (typeof node["x-quirk"] === "string") parts.push(container("warning", "Quirk", prose(node["x-quirk"])));
  const gaps = (node["x-undocumented"] ?? []) as string[];
  if (gaps.length > 0) parts.push(container("info", "Not documented", gaps.map((gap) => `- ${prose(gap)}`).join("\n")));
  if (typeof node["x-assumption"] === "string") parts.push(container("tip", "Assumption (ours, not the provider's)", prose(node["x-assumption"])));
  return parts.join("\n\n");
}

/** Other `x-` extensions of a node (e.g. `x-rate-limit`, `x-reply-rules`), shown as they are. */
function extensions(node: Node): string {
  const entries = Object.entries(node).filter(([key]) => key.startsWith("x-") && !ANNOTATION_KEYS.has(key));
  return entries.map(([key, value]) => `**${code(key)}**\n\n${jsonBlock(value)}`).join("\n\n");
}

