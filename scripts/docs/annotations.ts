// The Quirks and Gaps pages of one API, generated from every `x-quirk` and `x-undocumented` in its bundle: each entry
// says where it lives (operation, schema, parameter...) and links to that place on the reference page. The Gaps page
// also lists our own choices (`x-assumption`) and the refusals the provider's word promises (`x-provider-refuses`),
// so a reader sees at a glance what is the provider's word and what is ours.
import {
  type ApiName,
  deref,
  type Document,
  operationHref,
  operationsOf,
  reachableRefs,
  schemaAnchor,
  securityAnchor,
  unescapePointerSegment,
  valueAt,
} from "./document.js";
import { cell, code, prose, table } from "./markdown.js";

export interface Annotation {
  kind: "quirk" | "gap" | "assumption";
  text: string;
  /** JSON pointer of the node that carries the annotation. */
  pointer: string;
}

/** A constraint we chose (`x-assumption`) or a refusal the seed or a standard promises (`x-provider-refuses`). */
export interface Provenance {
  kind: "assumption" | "refusal";
  text: string;
  /** JSON pointer of the node that carries it; it applies to that node and everything below it. */
  pointer: string;
}

const PROVENANCE_KEYS = { "x-assumption": "assumption", "x-provider-refuses": "refusal" } as const;

/** Every `x-assumption` and `x-provider-refuses` of the document, in document order (examples are not searched). */
export function collectProvenance(doc: Document): Provenance[] {
  const found: Provenance[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`));
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key in PROVENANCE_KEYS && typeof value === "string")
        found.push({ kind: PROVENANCE_KEYS[key as keyof typeof PROVENANCE_KEYS], text: value, pointer });
      else if (key !== "examples" && key !== "example")
        walk(value, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
    }
  };
  walk(doc, "");
  return found;
}

/** Every quirk, gap and assumption of the document, in document order. */
export function collectAnnotations(doc: Document): Annotation[] {
  const found: Annotation[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`));
      return;
    }
    if (!node || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    if (typeof record["x-quirk"] === "string") found.push({ kind: "quirk", text: record["x-quirk"], pointer });
    if (typeof record["x-assumption"] === "string")
      found.push({ kind: "assumption", text: record["x-assumption"], pointer });
    if (Array.isArray(record["x-undocumented"])) {
      for (const text of record["x-undocumented"]) found.push({ kind: "gap", text: String(text), pointer });
    }
    for (const [key, value] of Object.entries(record)) {
      if (
        key === "x-quirk" ||
        key === "x-undocumented" ||
        key === "x-assumption" ||
        key === "examples" ||
        key === "example"
      )
        continue;
      walk(value, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
    }
  };
  walk(doc, "");
  return found;
}

interface Location {
  /** Markdown naming the place, e.g. "`listShops` (POST /api/shops/) › request body". */
  where: string;
  /** Link to that place on the API's reference page, relative to any page of that reference. */
  href: string;
}

const COMPONENT_KINDS: Record<string, string> = {
  parameters: "parameter",
  responses: "response",
  headers: "header",
  requestBodies: "request body",
  examples: "example",
  pathItems: "path item",
};

/** Where an annotated node is, in words and as a link to the reference page. */
export function locate(doc: Document, pointer: string): Location {
  const raw = pointer.split("/").slice(1);
  const [section, first, second] = raw.map(unescapePointerSegment);
  const detail = (depth: number) => detailLabel(doc, `/${raw.slice(0, depth).join("/")}`, raw.slice(depth));
  if (section === undefined || section === "info") return { where: "The whole API", href: "./" };
  if ((section === "paths" || section === "webhooks") && first !== undefined && second !== undefined) {
    const operationId = valueAt(doc, `/${raw.slice(0, 3).join("/")}`)?.operationId ?? "";
    const signature = section === "webhooks" ? `webhook ${first}` : `${second.toUpperCase()} ${first}`;
    return {
      where: joinLabel(`${code(operationId)} (${signature})`, detail(3)),
      href: operationHref(doc, operationId),
    };
  }
  if (section === "components" && first === "schemas" && second !== undefined) {
    return { where: joinLabel(`Schema ${code(second)}`, detail(3)), href: `./schemas#${schemaAnchor(second)}` };
  }
  if (section === "components" && first === "securitySchemes" && second !== undefined) {
    return { where: joinLabel(`Security scheme ${code(second)}`, detail(3)), href: `./#${securityAnchor(second)}` };
  }
  if (section === "components" && first !== undefined && second !== undefined && COMPONENT_KINDS[first]) {
    // Shared parts are shown inside every operation that uses them: name those operations and link to the first.
    const ref = `#/${raw.slice(0, 3).join("/")}`;
    const users = operationsOf(doc).filter((op) => reachableRefs(doc, op.operation).has(ref));
    const usedBy = users.length > 0 ? ` (in ${users.map((op) => code(op.operationId)).join(", ")})` : "";
    const label = joinLabel(`Shared ${COMPONENT_KINDS[first]} ${code(second)}`, detail(3));
    return { where: `${label}${usedBy}`, href: users[0] ? operationHref(doc, users[0].operationId) : "./" };
  }
  return { where: code(pointer), href: "./" };
}

/** The rest of a pointer in words: `responses/default/content/application~1json/schema` → "response `default`". */
function detailLabel(doc: Document, base: string, raw: string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const segment = unescapePointerSegment(raw[i]!);
    const next = raw[i + 1] === undefined ? undefined : unescapePointerSegment(raw[i + 1]!);
    if (segment === "parameters" && next !== undefined) {
      const parameter = deref(doc, valueAt(doc, `${base}/${raw.slice(0, i + 2).join("/")}`));
      parts.push(`parameter ${code(parameter?.name ?? next)}`);
      i++;
    } else if ((segment === "responses" || segment === "headers" || segment === "properties") && next !== undefined) {
      parts.push(
        segment === "properties" ? code(next) : `${segment === "responses" ? "response" : "header"} ${code(next)}`,
      );
      i++;
    } else if (segment === "content" && next !== undefined) {
      i++;
    } else if (segment === "requestBody") {
      parts.push("request body");
    } else if (segment !== "schema") {
      parts.push(segment);
    }
  }
  return parts.join(" › ");
}

function joinLabel(head: string, detail: string): string {
  return detail ? `${head} › ${detail}` : head;
}

interface AnnotationPageOptions {
  api: ApiName;
  doc: Document;
}

const INTRO = {
  quirk: (title: string) =>
    `Where ${title} behaves irregularly, the contract encodes the irregularity exactly (no smoothing over) and marks the node with \`x-quirk\`. ` +
    "Each entry links to the place in the reference where it applies; the typed clients and the mocks follow the same shapes.",
  gap: (title: string) =>
    `What the provider's documents of ${title} do not show stays visibly undocumented: the contract records it with \`x-undocumented\` instead of inventing a value. ` +
    "Where a public standard defines the missing part, the contract follows it and still lists the gap here.",
};

/** The markdown of the Quirks (`kind: "quirk"`) or Gaps (`kind: "gap"`) page of one API. */
export function renderAnnotationPage(kind: "quirk" | "gap", { api, doc }: AnnotationPageOptions): string {
  const title = doc.info.title;
  const entries = collectAnnotations(doc).filter((a) => a.kind === kind);
  const heading = kind === "quirk" ? `${title}: quirks` : `${title}: gaps`;
  const linkedRows = (items: Array<{ text: string; pointer: string }>) =>
    items.map((item) => {
      const location = locate(doc, item.pointer);
      return [`[${location.where.replaceAll("|", "\\|")}](${location.href})`, cell(item.text)];
    });
  const rows = linkedRows(entries);
  const other = kind === "quirk" ? "[gaps](./gaps)" : "[quirks](./quirks)";
  const provenance = kind === "gap" ? collectProvenance(doc) : [];
  const assumptions = provenance.filter((p) => p.kind === "assumption");
  const refusals = provenance.filter((p) => p.kind === "refusal");
  const provenanceSections =
    kind === "gap"
      ? [
          "",
          "## Our assumptions",
          "",
          prose(
            "Constraints the provider's documents do not state and we chose (`x-assumption`, with the reason). Each applies to the place linked and everything below it. " +
              "A request-side assumption binds our clients only: a provider that accepts more is not wrong.",
          ),
          "",
          assumptions.length > 0 ? table(["Where", "Assumption"], linkedRows(assumptions)) : "_None._",
          "",
          "## Refusals the provider promises",
          "",
          prose(
            "Where the seed or a standard it relies on promises that a request is refused (`x-provider-refuses`, with the source). " +
              "Elsewhere a request our contract would not send may still be accepted by the provider.",
          ),
          "",
          refusals.length > 0 ? table(["Where", "Source"], linkedRows(refusals)) : "_None._",
        ]
      : [];
  return [
    "---",
    `title: ${JSON.stringify(heading)}`,
    "outline: false",
    "---",
    "",
    ":::: v-pre",
    `# ${prose(heading)}`,
    "",
    prose(INTRO[kind](title)),
    "",
    `${entries.length} ${kind === "quirk" ? (entries.length === 1 ? "quirk" : "quirks") : entries.length === 1 ? "gap" : "gaps"} in \`specs/${api}.yaml\`. See also the ${other} and the [reference](./).`,
    "",
    entries.length > 0 ? table(["Where", kind === "quirk" ? "Quirk" : "Not documented"], rows) : "_None._",
    ...provenanceSections,
    "::::",
    "",
  ].join("\n");
}
