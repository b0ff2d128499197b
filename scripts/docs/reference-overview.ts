// The overview page of an API's reference (docs/reference/<api>/index.md): servers, authentication, the headers on
// every response, errors and what our client throws, the spec download, for pay a worked signing example, and the
// list of operations.
import { hmacSha256Signer } from "../../lib/pay-signature.js";
import { DEMO_CREDENTIALS } from "./code-samples.js";
import {
  type ApiName,
  deref,
  type Node,
  type DocOperation,
  type Document,
  operationHref,
  operationsOf,
  securityAnchor,
} from "./document.js";
import { type FieldRow, fieldTable, inlineHtml, typeText } from "./fields.js";
import { cell, code, fenced, prose, table } from "./markdown.js";
import { notesOf } from "./operation-notes.js";
import {
  redocHref,
  specHref,
  badges,
  squash,
  frontmatter,
  htmlTable,
  annotations,
  extensions,
} from "./reference-parts.js";

/**
 * What our typed client of each API throws (test/docs/reference-pages.test.ts holds it to each client's error classes).
 */
export const CLIENT_ERRORS: Record<ApiName, string> = {
  identity:
    "`createIdentityClient` (over openid-client) throws `IdentityApiError` (`code`, `description`, `status`, `operation`) for an OAuth " +
    "error answer of the provider, token or userinfo, with the OAuth `error` code first in its message; an id_token that does not verify " +
    "throws jose's errors.",
  links:
    "`createLinksClient` throws `LinksApiError` (`status`, `body`, `operation`) for every envelope with `error: 1`, whatever the HTTP status, " +
    "and for an error status or a 2xx body without the envelope; with the rate limiter on (the default) it waits for `X-RateLimit-Reset` " +
    "instead of being refused.",
  catalog:
    "`createCatalogClient` throws `CatalogApiError` (`status`, `body`, `operation`) for every error status, and its subclass " +
    "`CatalogScopeError` (`missingScope`) on 403. Writes are retried with the same `Idempotency-Key` after a network error or a 5xx.",
  pay:
    "`createPayClient` throws `PayApiError` (`status`, `type`, `desc`, `operation`) whenever the envelope's `type` is not `success` " +
    "(or missing), whatever the HTTP status.",
};

export function overviewPage(api: ApiName, doc: Document): string {
  const info = doc.info;
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
  if (info.license)
    out.push(
      `**License:** ${info.license.url ? `[${prose(info.license.name)}](${info.license.url})` : prose(info.license.name)}`,
      "",
    );
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

function operationsIndex(doc: Document): string {
  const rows = operationsOf(doc).map((op) => {
    const target = op.webhook
      ? `webhook <code>${op.path}</code>`
      : `<span class="http-method ${op.method}">${op.method.toUpperCase()}</span> <code>${op.path}</code>`;
    return [
      `<a href="${operationHref(doc, op.operationId)}"><code>${op.operationId}</code></a>`,
      target,
      inlineHtml(op.operation.summary),
      badges(notesOf(doc, op)),
    ];
  });
  return htmlTable(["Operation", "Request", "Summary", "Notes"], rows, "operations-index");
}

function serversTable(doc: Document): string {
  const rows = (doc.servers ?? []).map((server) => {
    const variables = Object.entries(server.variables ?? {})
      .map(
        ([name, variable]) =>
          `${code(`{${name}}`)} (default ${code(variable.default)}${(variable as Node).description ? `: ${cell((variable as Node).description)}` : ""})`,
      )
      .join("; ");
    return [code(server.url), cell(server.description) + (variables ? ` Variables: ${variables}` : "")];
  });
  return table(["URL", "Description"], rows);
}

function securitySection(doc: Document): string[] {
  const schemes = Object.entries((doc.components?.securitySchemes ?? {}) as Record<string, Node>);
  if (schemes.length === 0) return [];
  const out = ["## Authentication {#authentication}", ""];
  for (const [name, scheme] of schemes) {
    out.push(`### ${prose(name)} {#${securityAnchor(name)}}`, "");
    const facts = [`**Type:** ${code(String(scheme.type))}`];
    if (typeof scheme.scheme === "string") facts.push(`**Scheme:** ${code(scheme.scheme)}`);
    if (scheme.in) facts.push(`**In:** ${scheme.in} ${code(scheme.name ?? "")}`);
    if (typeof scheme.openIdConnectUrl === "string") facts.push(`**Discovery:** ${code(scheme.openIdConnectUrl)}`);
    out.push(facts.join(" · "), "", prose(scheme.description), "");
    for (const [flowName, flow] of Object.entries((scheme.flows ?? {}) as Record<string, Node>)) {
      const urls = ["authorizationUrl", "tokenUrl", "refreshUrl"].flatMap((key) =>
        typeof flow[key] === "string" ? [`${key} ${code(flow[key])}`] : [],
      );
      out.push(`**Flow ${code(flowName)}:** ${urls.join(", ")}`, "");
      const scopes = Object.entries((flow.scopes ?? {}) as Record<string, string>);
      if (scopes.length > 0)
        out.push(
          table(
            ["Scope", "Grants"],
            scopes.map(([scope, text]) => [code(scope), cell(text)]),
          ),
          "",
        );
    }
    out.push(annotations(scheme), "", extensions(scheme), "");
  }
  return out;
}

/** Response headers that every response of every operation carries (links: X-RateLimit-*), explained once. */
export function sharedResponseHeaders(doc: Document): Map<string, Node> {
  const responses = operationsOf(doc)
    .filter((op) => !op.webhook)
    .flatMap((op) => Object.values(op.operation.responses ?? {}).map((r) => deref(doc, r)));
  const shared = new Map<string, Node>();
  if (responses.length === 0) return shared;
  for (const [name, header] of Object.entries(responses[0]!.headers ?? {})) {
    if (responses.every((response) => response.headers && name in response.headers))
      shared.set(name, deref(doc, header));
  }
  return shared;
}

export function headerRows(doc: Document, headers: Array<[string, Node]>): FieldRow[] {
  return headers.map(([name, header]) => ({
    name,
    schema: header.schema,
    required: header.required === true,
    owner: header,
  }));
}

function sharedHeadersSection(doc: Document): string[] {
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

function errorsSection(api: ApiName, doc: Document): string[] {
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
    for (const [status, reference] of Object.entries(op.operation.responses ?? {})) {
      if (!isErrorStatus(status)) continue;
      const response = deref(doc, reference);
      const entry = byStatus.get(status) ?? {
        description: String(response.description ?? ""),
        types: new Set<string>(),
        ops: [],
      };
      for (const media of Object.values(response.content ?? {})) {
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
  if (!envelope && errorTypes.size > 0)
    out.push(`**Envelope:** error responses carry ${[...errorTypes].join(" or ")}, by status as below.`, "");
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
    fenced(
      "sh",
      `printf '%s' '${vector.body}' | openssl dgst -sha256 -hmac '${vector.key}' -hex | sed 's/^.* //'\n# ${vector.hmac}`,
    ),
    "",
    "Sign the bytes you send: serialising the JSON again (another key order, other spacing) changes the signature, and every request needs a fresh, increasing `nonce`.",
    "",
  ];
}
