// Read access to the bundled contracts (generated/openapi/<api>.json) and Ajv validators compiled from them.
// Every runtime consumer (mocks, sandbox, conformance, tests) goes through here, so all of them validate
// against exactly the same schemas. The bundles are imported as JSON modules rather than read from disk, so that
// this module (and the MSW handlers built on it) also runs in a browser bundle.
import { Ajv2020, type ValidateFunction, type ErrorObject } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import catalogBundle from "../generated/openapi/catalog.json" with { type: "json" };
import identityBundle from "../generated/openapi/identity.json" with { type: "json" };
import linksBundle from "../generated/openapi/links.json" with { type: "json" };
import payBundle from "../generated/openapi/pay.json" with { type: "json" };

export const API_NAMES = ["identity", "links", "catalog", "pay"] as const;
export type ApiName = (typeof API_NAMES)[number];

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A loosely typed OpenAPI 3.1 document: enough structure for walking it, no more. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown> & { title: string; version: string };
  servers?: Array<{ url: string; description?: string; variables?: Record<string, { default: string }> }>;
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface Operation {
  api: ApiName;
  operationId: string;
  method: HttpMethod;
  /** The path template, e.g. `/api/domain/{id}/update`; for webhooks the webhook's name. */
  path: string;
  webhook: boolean;
  /** JSON pointer of the operation object inside its document. */
  pointer: string;
  operation: Record<string, any>;
}

const bundles = { identity: identityBundle, links: linksBundle, catalog: catalogBundle, pay: payBundle } as unknown as Record<ApiName, OpenApiDocument>;

/** The bundled document of one API (shared; treat it as read-only). */
export function loadBundle(api: ApiName): OpenApiDocument {
  return bundles[api];
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function pointerSegment(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Every operation of the document, path operations first, then webhooks. */
export function listOperations(api: ApiName): Operation[] {
  return listOperationsIn(loadBundle(api)).map((op) => ({ api, ...op }));
}

/** listOperations for any OpenAPI document (a bundle, a released snapshot, a file given to `contracts diff`). */
export function listOperationsIn(doc: OpenApiDocument): Array<Omit<Operation, "api">> {
  const result: Array<Omit<Operation, "api">> = [];
  for (const [section, webhook] of [["paths", false], ["webhooks", true]] as const) {
    for (const [path, item] of Object.entries(doc[section] ?? {})) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as Record<string, any> | undefined;
        if (!operation) continue;
        result.push({
          operationId: operation.operationId,
          method,
          path,
          webhook,
          pointer: `/${section}/${pointerSegment(path)}/${method}`,
          operation,
        });
      }
    }
  }
  return result;
}

export function findOperation(api: ApiName, operationId: string): Operation {
  const found = listOperations(api).find((op) => op.operationId === operationId);
  if (!found) throw new Error(`${api} has no operation ${operationId}`);
  return found;
}

/**
 * The pointer at which `pointer` really lives once every local `$ref` on the way is followed, e.g.
 * `/paths/~1me/get/responses/403` → `/components/responses/ScopeError`. Ajv only follows `$ref`s inside schemas,
 * so validators are compiled at canonical pointers.
 */
export function canonicalPointer(api: ApiName, pointer: string): string {
  return canonicalPointerIn(loadBundle(api), pointer, api);
}

/** canonicalPointer for any document; `label` names the document in errors. */
export function canonicalPointerIn(doc: unknown, pointer: string, label = "document"): string {
  let current = "";
  let node: any = doc;
  const follow = () => {
    const seen = new Set<string>();
    while (node && typeof node === "object" && typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
      if (seen.has(node.$ref)) throw new Error(`${label}: circular $ref ${node.$ref}`);
      seen.add(node.$ref);
      current = node.$ref.slice(1);
      node = valueAt(doc, current);
    }
  };
  for (const raw of pointer.split("/").slice(1)) {
    follow();
    node = node?.[unescapeSegment(raw)];
    if (node === undefined) throw new Error(`${label}: nothing at ${pointer}`);
    current = `${current}/${raw}`;
  }
  follow();
  return current;
}

/** The value at a JSON pointer, without following `$ref`s (undefined when there is none). */
export function valueAt(doc: unknown, pointer: string): any {
  return pointer.split("/").slice(1).reduce((node: any, raw) => node?.[unescapeSegment(raw)], doc);
}

/** The value at a JSON pointer inside a bundle, following local `$ref`s on the way and at the end. */
export function resolvePointer(api: ApiName, pointer: string): any {
  return valueAt(loadBundle(api), canonicalPointer(api, pointer));
}

function unescapeSegment(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

// OpenAPI's own format names, which JSON Schema validators do not know.
const OPENAPI_FORMATS: Record<string, (value: any) => boolean> = {
  int32: (n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  int64: (n) => Number.isInteger(n),
  float: (n) => typeof n === "number",
  double: (n) => typeof n === "number",
  password: () => true,
  byte: (s) => typeof s === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(s),
  binary: () => true,
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajvs = new Map<ApiName, Ajv2020>();

/** One Ajv 2020 instance per API that knows the whole bundled document under the id `api://<api>`. */
export function ajvFor(api: ApiName): Ajv2020 {
  let ajv = ajvs.get(api);
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    for (const [name, validate] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, { validate });
    ajv.addSchema(loadBundle(api) as object, `api://${api}`);
    ajvs.set(api, ajv);
  }
  return ajv;
}

const validators = new Map<string, ValidateFunction>();

/** A validator for the schema at `pointer` (e.g. `/components/schemas/Order`) of one API's bundle. */
export function schemaValidator(api: ApiName, pointer: string): ValidateFunction {
  const key = `api://${api}#${canonicalPointer(api, pointer)}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajvFor(api).compile({ $ref: key });
    validators.set(key, validate);
  }
  return validate;
}

/** JSON pointer of a response body schema: `responseSchemaPointer("links", "listDomains", "200")`. */
export function responseSchemaPointer(api: ApiName, operationId: string, status: string, mediaType = "application/json"): string {
  const op = findOperation(api, operationId);
  return `${op.pointer}/responses/${status}/content/${pointerSegment(mediaType)}/schema`;
}

/** JSON pointer of a request body schema. */
export function requestSchemaPointer(api: ApiName, operationId: string, mediaType = "application/json"): string {
  const op = findOperation(api, operationId);
  return `${op.pointer}/requestBody/content/${pointerSegment(mediaType)}/schema`;
}

export interface ValidationResult {
  valid: boolean;
  errors: ErrorObject[];
}

/** Validates `data` against the schema at `pointer`; never throws on invalid data. */
export function validateAt(api: ApiName, pointer: string, data: unknown): ValidationResult {
  const validate = schemaValidator(api, pointer);
  const valid = validate(data) as boolean;
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}

/** Human-readable one-line summary of Ajv errors. */
export function describeErrors(errors: ErrorObject[]): string {
  return errors.map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`).join("; ");
}
