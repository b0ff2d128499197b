// Gap discovery: what a deployment returns that the contract does not describe (fields of open objects, statuses
// covered only by `default` or a range, headers nobody documented), matched to the `x-undocumented` entries they shed
// light on. Observations are facts for whoever maintains the contract; they never fail a run.
import {
  documentedMediaType,
  documentedResponse,
  escapeSegment as pointerSegment,
  loadContract,
  responseSchemaPointer,
} from "../../lib/contract/index.js";
import { judgedStatus } from "../contract/words.js";
import { checkContextOf, resolveAt, validateAt } from "../contract/lookup.js";
import type { OperationModel } from "../model/cases.js";
import type { Exchange } from "../model/exchange.js";
import type { AdvertisedElsewhere } from "../model/identity-facts.js";

export interface Observation {
  /** deployment: a fact about the deployment, e.g. its endpoints are elsewhere (judge/identity-discovery.ts). */
  kind: "extra-field" | "undocumented-status" | "undocumented-header" | "accepted-invalid" | "deployment";
  /** The operations whose responses showed it. */
  operations: string[];
  /** e.g. `/variants/0/prices/0/currency`, `401`, `x-request-id`. */
  subject: string;
  detail: string;
  /** The `x-undocumented` entries this observation sheds light on. */
  undocumented: string[];
  /** How many responses showed it. */
  count: number;
  /** A deployment fact the --overlay records (identity endpoints' `x-advertised-endpoint`): known, not new. */
  known?: "overlay";
  /** The endpoints advertised elsewhere than the contract's, by operation: what `contracts overlay record` records. */
  advertised?: AdvertisedElsewhere[];
}

// Transport and caching headers every HTTP server may send; they say nothing about the contract.
const ORDINARY_HEADERS = new Set([
  "content-type",
  "content-length",
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "server",
  "vary",
  "etag",
  "last-modified",
  "cache-control",
  "pragma",
  "expires",
  "age",
  "access-control-allow-origin",
  "access-control-allow-credentials",
  "access-control-allow-headers",
  "access-control-allow-methods",
  "access-control-expose-headers",
  "x-powered-by",
  "strict-transport-security",
  "x-content-type-options",
  "x-frame-options",
  "content-security-policy",
  "referrer-policy",
  "set-cookie",
  "content-encoding",
  "alt-svc",
  "via",
  "x-xss-protection",
]);

const STOP_WORDS = new Set([
  "the",
  "of",
  "and",
  "are",
  "not",
  "shown",
  "is",
  "for",
  "a",
  "an",
  "x",
  "in",
  "to",
  "on",
  "each",
  "this",
  "that",
]);

function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
      .map((w) => w.replace(/s$/, "")),
  );
}

function undocumentedAt(node: unknown): string[] {
  const entries = (node as { "x-undocumented"?: unknown } | undefined)?.["x-undocumented"];
  return Array.isArray(entries) ? entries.filter((e): e is string => typeof e === "string") : [];
}

const related = new Map<string, string[]>();

/** Entries on the way from the document to the response, most specific first, filtered by shared words (remembered). */
function relatedEntries(model: OperationModel, responsePointer: string | undefined, subject: string): string[] {
  const key = `${model.op.api} ${model.op.operationId} ${responsePointer ?? ""} ${subject}`;
  let entries = related.get(key);
  if (!entries) related.set(key, (entries = findRelatedEntries(model, responsePointer, subject)));
  return entries;
}

function findRelatedEntries(model: OperationModel, responsePointer: string | undefined, subject: string): string[] {
  const api = model.op.api;
  const scopes = [
    responsePointer ? resolveAt(api, responsePointer) : undefined,
    model.op.operation,
    loadContract(api).document.info,
  ];
  const wanted = words(subject);
  const found: string[] = [];
  for (const scope of scopes)
    for (const entry of undocumentedAt(scope))
      if ([...words(entry)].some((w) => wanted.has(w)) && !found.includes(entry)) found.push(entry);
  return found;
}

export class ObservationLog {
  private readonly byKey = new Map<string, Observation>();

  list(): Observation[] {
    return [...this.byKey.values()];
  }

  private add(operationId: string, observation: Omit<Observation, "count" | "operations">): void {
    const key = `${observation.kind} ${observation.detail} ${observation.undocumented.join(" ")}`;
    const existing = this.byKey.get(key);
    if (existing) {
      existing.count += 1;
      if (!existing.operations.includes(operationId)) existing.operations.push(operationId);
    } else this.byKey.set(key, { ...observation, operations: [operationId], count: 1 });
  }

  /** An invalid request accepted where the contract does not say the provider refuses it, or a deployment's fact. */
  noted(
    kind: "accepted-invalid" | "deployment",
    operationId: string,
    detail: string,
    about: Pick<Observation, "known" | "advertised"> = {},
  ): void {
    this.add(operationId, { kind, subject: detail, detail, undocumented: [], ...about });
  }

  observe(model: OperationModel, exchange: Exchange): void {
    const response = exchange.response;
    if (!response) return;
    const api = model.op.api;
    const operationId = model.op.operationId;
    const judged = judgedStatus(api, model.op, response.status);
    if (judged === undefined) return; // status_code_conformance reports it
    const key = judged.key;
    const documented = documentedResponse(checkContextOf(api), model.op, key);

    // A status beside an assumed one is a warning of status_code_conformance already.
    if (key !== String(response.status) && judged.assumption === undefined) {
      const about = response.status >= 400 ? "error" : "success";
      this.add(operationId, {
        kind: "undocumented-status",
        subject: String(response.status),
        detail: `status ${response.status} is documented only as ${key}`,
        undocumented: [
          ...undocumentedAt(documented.response),
          ...relatedEntries(model, undefined, "status codes"),
        ].filter((e, i, all) => all.indexOf(e) === i && e.toLowerCase().includes(about)),
      });
    }

    const declaredHeaders = new Set(Object.keys(documented.response.headers ?? {}).map((h) => h.toLowerCase()));
    for (const name of Object.keys(response.headers)) {
      if (declaredHeaders.has(name) || ORDINARY_HEADERS.has(name)) continue;
      this.add(operationId, {
        kind: "undocumented-header",
        subject: name,
        detail: `header ${name} is not documented for ${key === "default" ? "errors" : key}`,
        undocumented: relatedEntries(model, documented.pointer, name.replace(/^x-/, "")),
      });
    }

    // The schema of the media type received (content_type_conformance judges one that is not documented).
    const mediaType = documentedMediaType(documented.response.content ?? {}, response.headers["content-type"]);
    if (!response.isJson || !mediaType?.includes("json")) return;
    this.walk(model, responseSchemaPointer(documented, mediaType), response.json, "", 0);
  }

  /** Records the keys of open objects that their schema does not declare. */
  private walk(model: OperationModel, pointer: string, value: unknown, path: string, depth: number): void {
    if (depth > 8 || value === null || typeof value !== "object") return;
    const api = model.op.api;
    const schema = resolveAt(api, pointer);
    for (const keyword of ["oneOf", "anyOf"] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      const branch = branches.findIndex((_, index) => validateAt(api, `${pointer}/${keyword}/${index}`, value).valid);
      if (branch >= 0 && (branches[branch]?.properties || branches[branch]?.$ref))
        this.walk(model, `${pointer}/${keyword}/${branch}`, value, path, depth + 1);
    }
    // A bare union (the success or the error envelope) declares its fields in its branches, walked above.
    if ((schema.oneOf || schema.anyOf) && !schema.properties) return;
    if (Array.isArray(value)) {
      if (schema.items)
        value
          .slice(0, 20)
          .forEach((item, index) => this.walk(model, `${pointer}/items`, item, `${path}/${index}`, depth + 1));
      return;
    }
    const properties = schema.properties ?? {};
    for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
      if (name in properties) {
        this.walk(model, `${pointer}/properties/${pointerSegment(name)}`, child, `${path}/${name}`, depth + 1);
        continue;
      }
      if (
        schema.additionalProperties === false ||
        (schema.additionalProperties && typeof schema.additionalProperties === "object")
      )
        continue;
      // Array positions are folded, so the same field of every item is one observation.
      this.add(model.op.operationId, {
        kind: "extra-field",
        subject: `${path.replace(/\/\d+(?=\/|$)/g, "/*")}/${name}`,
        detail: `field ${path.replace(/\/\d+(?=\/|$)/g, "/*")}/${name} (${child === null ? "null" : Array.isArray(child) ? "array" : typeof child}) is not in the schema`,
        undocumented: undocumentedAt(schema),
      });
    }
  }
}
