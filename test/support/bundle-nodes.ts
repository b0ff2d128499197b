// The spec tests' loose view of a bundle: lib/contract's reads, with nodes typed `any` so that a test can poke at
// whatever it asserts on. Production code uses lib/contract's typed model instead.
import { type ApiName, loadBundle as loadDocument, loadContract } from "../../lib/contract/index.js";
import type { HttpMethod } from "../../lib/contract/model.js";
import {
  canonicalPointer as canonicalPointerOf,
  HTTP_METHODS,
  joinPointer,
  pointerOf,
  valueAt as valueAtOf,
} from "../../lib/contract/index.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction, ValidationResult } from "../../lib/contract/validation.js";

export {
  API_NAMES,
  type ApiName,
  describeErrors,
  HTTP_METHODS,
  type HttpMethod,
  type ValidationResult,
} from "../../lib/contract/index.js";

/**
 * The round-1 loosely typed document (any OpenAPI document: a bundle, a released snapshot, a file given to `contracts
 * diff`).
 */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown> & { title: string; version: string };
  servers?: Array<{ url: string; description?: string; variables?: Record<string, { default: string }> }>;
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** A node of a bundle as a test reads it. */
export type LegacyNode = any;

export interface Operation {
  api: ApiName;
  operationId: string;
  method: HttpMethod;
  path: string;
  webhook: boolean;
  pointer: string;
  /**
   * The operation object; typed as `Operation` of lib/contract/model.ts in `loadContract(api).operation(id).operation`.
   */
  operation: LegacyNode;
}

/** Escapes one JSON pointer segment (RFC 6901). */
export { escapeSegment as pointerSegment } from "../../lib/contract/index.js";

export function listOperationsIn(doc: OpenApiDocument): Array<Omit<Operation, "api">> {
  // Any document (a file given to `contracts diff` may lack operationIds), so not listOperationsOf, which requires
  // them.
  const result: Array<Omit<Operation, "api">> = [];
  for (const [section, webhook] of [
    ["paths", false],
    ["webhooks", true],
  ] as const) {
    for (const [path, item] of Object.entries(doc[section] ?? {})) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as { operationId?: string } | undefined;
        if (!operation) continue;
        result.push({
          operationId: operation.operationId as string,
          method,
          path,
          webhook,
          pointer: pointerOf([section, path, method]),
          operation,
        });
      }
    }
  }
  return result;
}

export function loadBundle(api: ApiName): OpenApiDocument {
  return loadDocument(api) as unknown as OpenApiDocument;
}

export function listOperations(api: ApiName): Operation[] {
  return listOperationsIn(loadBundle(api)).map((op) => ({ api, ...op }));
}

export function findOperation(api: ApiName, operationId: string): Operation {
  const found = listOperations(api).find((op) => op.operationId === operationId);
  if (!found) throw new Error(`${api} has no operation ${operationId}`);
  return found;
}

export function canonicalPointer(api: ApiName, pointer: string): string {
  return loadContract(api).canonicalPointer(pointer);
}

export function canonicalPointerIn(doc: unknown, pointer: string, label = "document"): string {
  return canonicalPointerOf(doc, pointer, label);
}

export function resolvePointer(api: ApiName, pointer: string): LegacyNode {
  return loadContract(api).resolve(pointer);
}

export function valueAt(doc: unknown, pointer: string): LegacyNode {
  return valueAtOf(doc, pointer);
}

export function ajvFor(api: ApiName): Ajv2020 {
  return loadContract(api).validators.ajv;
}

export function schemaValidator(api: ApiName, pointer: string): ValidateFunction {
  return loadContract(api).validator(pointer);
}

export function validateAt(api: ApiName, pointer: string, data: unknown): ValidationResult {
  return loadContract(api).validate(pointer, data);
}

export function responseSchemaPointer(
  api: ApiName,
  operationId: string,
  status: string,
  mediaType = "application/json",
): string {
  return joinPointer(findOperation(api, operationId).pointer, "responses", status, "content", mediaType, "schema");
}

export function requestSchemaPointer(api: ApiName, operationId: string, mediaType = "application/json"): string {
  return joinPointer(findOperation(api, operationId).pointer, "requestBody", "content", mediaType, "schema");
}
