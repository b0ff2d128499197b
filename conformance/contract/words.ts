// What the contract itself says about how strictly to judge: `x-assumption` (a constraint we chose where the seeds
// are silent: breaking it is a warning unless --strict), `x-provider-refuses` (the provider promised to refuse a
// request that breaks this node: only there is an accepted invalid request a failure) and the root
// `x-error-envelope` (an error signalled in the body, whatever the HTTP status). Each extension applies to the node
// that carries it and everything below it, so a node's ancestors (in the document and along `$ref`s) are read too.
import type { ErrorObject } from "ajv";
import {
  type ApiName,
  escapeSegment as pointerSegment,
  type JsonSchema,
  loadContract,
  type OperationInfo,
  responseKeyFor,
  valueAt,
} from "../../lib/contract/index.js";
import type { Location } from "../model/cases.js";
import type { RecordedResponse } from "../model/exchange.js";

export type ContractWord =
  "x-assumption" | "x-provider-refuses" | "x-any-status-in-class" | "x-undocumented-methods-refused";

export interface ErrorEnvelope {
  property: string;
  success: unknown[];
}

/** The root `x-error-envelope` of an API, if its contract declares one. */
export function errorEnvelope(api: ApiName): ErrorEnvelope | undefined {
  const declared = loadContract(api).document["x-error-envelope"] as Partial<ErrorEnvelope> | undefined;
  if (!declared || typeof declared.property !== "string" || !Array.isArray(declared.success)) return undefined;
  return { property: declared.property, success: declared.success };
}

/** The root `x-every-response` of an API: the media type its provider promises for every response, and where. */
export function everyResponse(api: ApiName): { mediaType: string; source: string } | undefined {
  const declared = loadContract(api).document["x-every-response"] as
    { mediaType?: unknown; source?: unknown } | undefined;
  if (!declared || typeof declared.mediaType !== "string" || typeof declared.source !== "string") return undefined;
  return { mediaType: declared.mediaType, source: declared.source };
}

/** The root `x-undocumented-methods-refused` of an API: the provider's word that refuses a method no path documents. */
export function undocumentedMethodsRefused(api: ApiName): string | undefined {
  return textOf(loadContract(api).document, "x-undocumented-methods-refused");
}

/** The error the body signals through the contract's envelope (e.g. `error: 1`), if it signals one. */
export function envelopeError(api: ApiName, response: RecordedResponse): string | undefined {
  const envelope = errorEnvelope(api);
  const body = response.json;
  if (!envelope || !response.isJson || body === null || typeof body !== "object" || Array.isArray(body))
    return undefined;
  const record = body as Record<string, unknown>;
  if (!(envelope.property in record)) return undefined;
  const value = record[envelope.property];
  return envelope.success.some((ok) => ok === value)
    ? undefined
    : `${envelope.property} ${JSON.stringify(value)} in the body`;
}

/** A refusal as the contract defines it: HTTP status >= 400, or an error envelope in the body. */
export function isRefusal(api: ApiName, response: RecordedResponse): boolean {
  return response.status >= 400 || envelopeError(api, response) !== undefined;
}

/** A success: a 2xx that the body's envelope does not turn into an error. */
export function isSuccess(api: ApiName, response: RecordedResponse | undefined): boolean {
  return (
    response !== undefined &&
    response.status >= 200 &&
    response.status < 300 &&
    envelopeError(api, response) === undefined
  );
}

function textOf(node: unknown, word: ContractWord): string | undefined {
  const value = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[word] : undefined;
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function safeResolve(api: ApiName, pointer: string): unknown {
  try {
    return loadContract(api).resolve(pointer);
  } catch {
    return undefined;
  }
}

/**
 * The word on the deepest node among the pointers and their prefixes (each read as written and through its `$ref`).
 * `floor` stops the climb: a prefix with fewer segments than floor(pointer) is not read.
 */
function deepest(
  api: ApiName,
  pointers: string[],
  word: ContractWord,
  floor: (pointer: string) => number = () => 1,
): string | undefined {
  const doc = loadContract(api).document;
  let found: { depth: number; text: string } | undefined;
  for (const pointer of pointers) {
    const segments = pointer.split("/");
    for (let length = segments.length; length >= floor(pointer); length--) {
      const prefix = segments.slice(0, length).join("/");
      const text = textOf(valueAt(doc, prefix), word) ?? textOf(safeResolve(api, prefix), word);
      if (text !== undefined) {
        if (!found || length > found.depth) found = { depth: length, text };
        break;
      }
    }
  }
  return found?.text;
}

/**
 * Why a field beyond a closed response schema is a warning, not a failure: the seeds list a response's fields, and
 * none promises that there are no others (providers add fields without a new version). Closing the schema is our
 * reading (specs/README.md, "Open or closed"), which keeps our clients, mocks and sandbox honest; a provider that
 * sends one more field still keeps its word.
 */
export const CLOSED_RESPONSE_ASSUMPTION =
  "The seeds list this response's fields without promising there are no others; the closed schema (no additional properties) is our reading, not the provider's word.";

/** The assumption an error of a response body breaks by its kind alone: a field beyond a closed schema. */
export function closedResponseAssumption(error: ErrorObject): string | undefined {
  return error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties"
    ? CLOSED_RESPONSE_ASSUMPTION
    : undefined;
}

/** Follows instance keys from a schema into its properties, items or additionalProperties; the pointers passed. */
function schemaTrail(api: ApiName, schemaPointer: string, keys: string[]): string[] {
  const trail = [schemaPointer];
  let pointer = schemaPointer;
  for (const key of keys) {
    const node = safeResolve(api, pointer) as JsonSchema | undefined;
    if (!node || typeof node !== "object") break;
    if (node.properties && key in node.properties) pointer = `${pointer}/properties/${pointerSegment(key)}`;
    else if (node.items && /^\d+$/.test(key)) pointer = `${pointer}/items`;
    else if (node.additionalProperties && typeof node.additionalProperties === "object")
      pointer = `${pointer}/additionalProperties`;
    else break;
    trail.push(pointer);
  }
  return trail;
}

/**
 * The word that applies to a place in a request (a parameter, or a body location), read from the operation down. A
 * parameter left out (`removed`) is judged by the words on the parameter, not on its value's schema: an assumption
 * about what a sent value looks like (catalog's non-empty Idempotency-Key) says nothing about leaving it out.
 */
export function requestWord(
  api: ApiName,
  opPointer: string,
  location: Location,
  bodySchemaPointer: string | undefined,
  word: ContractWord,
  removed = false,
): string | undefined {
  if (location.in === "body") {
    if (!bodySchemaPointer) return deepest(api, [opPointer], word);
    return deepest(api, schemaTrail(api, bodySchemaPointer, location.path), word);
  }
  const operation = safeResolve(api, opPointer) as { parameters?: unknown[] } | undefined;
  const index = (operation?.parameters ?? []).findIndex((_, i) => {
    const parameter = safeResolve(api, `${opPointer}/parameters/${i}`) as { name?: string; in?: string } | undefined;
    return parameter?.name === location.name && parameter?.in === location.in;
  });
  const parameter = `${opPointer}/parameters/${index}`;
  return deepest(api, [index < 0 ? opPointer : removed ? parameter : `${parameter}/schema`], word);
}

/** The word that applies to a schema error in a response body validated against `schemaPointer`. */
export function responseErrorWord(
  api: ApiName,
  schemaPointer: string,
  error: ErrorObject,
  word: ContractWord,
): string | undefined {
  const keys = error.instancePath
    .split("/")
    .slice(1)
    .map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"));
  const pointers = schemaTrail(api, schemaPointer, keys);
  // A missing required property: the property's own node may carry the word.
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  if (error.keyword === "required" && missing !== undefined)
    pointers.push(...schemaTrail(api, schemaPointer, [...keys, missing]).slice(keys.length + 1));
  if (error.schemaPath.startsWith("#/")) pointers.push(error.schemaPath.slice(1));
  return deepest(api, pointers, word, schemaRootDepth);
}

/**
 * How many segments the pointer of the schema that a pointer lies in has: a body is judged by its schema, so the
 * words of a response, an operation or the root (an assumed status code, say) do not reach into it.
 */
function schemaRootDepth(pointer: string): number {
  const segments = pointer.split("/");
  if (segments[1] === "components" && segments[2] === "schemas") return 4;
  const media = segments.findIndex((segment, i) => segment === "content" && segments[i + 2] === "schema");
  return media < 0 ? 1 : media + 3;
}

/**
 * Where a status is judged: its documented response, and the assumption it breaks when it is not the one documented.
 */
export interface JudgedStatus {
  key: string;
  /** Set when the status is only of the same class as a documented code whose response carries `x-assumption`. */
  assumption?: string;
}

/**
 * The documented response that judges a status: the exact code, else its range (`4XX`), else a code of the same class
 * whose response carries `x-any-status-in-class` (a standard leaves the provider every status of the class: 303 where
 * the contract writes 302 for any redirect passes) or `x-assumption` (a provider that answers 201 where the contract
 * assumes 200 breaks that assumption, and its body is judged by the 200's schema), else `default`; undefined when none
 * covers it. Generators read concrete codes, not ranges: the contract says `302`, and the runner reads the rest. The
 * order is lib/contract's responseKeyFor; the same-class rule is the contract's words, read here.
 */
export function judgedStatus(api: ApiName, operation: OperationInfo, status: number): JudgedStatus | undefined {
  const wordOf = (key: string, word: ContractWord) =>
    textOf(safeResolve(api, `${operation.pointer}/responses/${key}`), word);
  const anyInClass = (key: string) => wordOf(key, "x-any-status-in-class") !== undefined;
  const key = responseKeyFor(
    operation,
    status,
    (code) => anyInClass(code) || wordOf(code, "x-assumption") !== undefined,
  );
  if (key === undefined) return undefined;
  // Only a code of the same class (not the status itself, its range or default) can break an assumed one.
  const sameClass = key !== String(status) && /^\d{3}$/.test(key);
  const assumption = sameClass && !anyInClass(key) ? wordOf(key, "x-assumption") : undefined;
  return assumption === undefined ? { key } : { key, assumption };
}
