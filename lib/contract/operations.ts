// The operations of a document, found by operationId, with their parameters resolved (path-item parameters
// merged in, operation ones winning) and the JSON pointer of each part for the validators.
import {
  HTTP_METHODS,
  type HttpMethod,
  type Document,
  type Operation,
  type Parameter,
  type PathItem,
  type RequestBody,
} from "./model.js";
import { deref, joinPointer, pointerOf } from "./refs.js";

export interface ResolvedParameter {
  parameter: Parameter;
  /** Pointer of the parameter as the operation (or its path item) lists it; its schema is at `${pointer}/schema`. */
  pointer: string;
}

export interface OperationInfo {
  operationId: string;
  method: HttpMethod;
  /** The path template, e.g. `/api/domain/{id}/update`; for webhooks the webhook's name. */
  path: string;
  webhook: boolean;
  tags: string[];
  /** Pointer of the operation object inside its document. */
  pointer: string;
  operation: Operation;
  parameters: ResolvedParameter[];
  requestBody: RequestBody | undefined;
}

function resolveParameters(
  doc: Document,
  item: PathItem,
  itemPointer: string,
  operation: Operation,
  opPointer: string,
): ResolvedParameter[] {
  const byKey = new Map<string, ResolvedParameter>();
  const add = (list: PathItem["parameters"], base: string): void => {
    (list ?? []).forEach((node, index) => {
      const parameter = deref(doc, node);
      byKey.set(`${parameter.in}:${parameter.name}`, { parameter, pointer: joinPointer(base, "parameters", index) });
    });
  };
  add(item.parameters, itemPointer);
  add(operation.parameters, opPointer);
  return [...byKey.values()];
}

/**
 * Where an operation sits in any OpenAPI 3.x document, operationId optional: a file given to `contracts diff`
 * or a released snapshot need not have one. Only local facts, so no `$ref` is followed.
 */
export interface OperationLocation {
  operationId: string | undefined;
  method: HttpMethod;
  /** The path template, e.g. `/api/domain/{id}/update`; for webhooks the webhook's name. */
  path: string;
  webhook: boolean;
  /** Pointer of the operation object inside its document. */
  pointer: string;
  operation: Operation;
}

/** Every operation of any document, path operations first, then webhooks, whether or not it has an operationId. */
export function locateOperations(doc: Document): OperationLocation[] {
  const result: OperationLocation[] = [];
  for (const [section, webhook] of [
    ["paths", false],
    ["webhooks", true],
  ] as const) {
    for (const [path, item] of Object.entries(doc[section] ?? {})) {
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (operation)
          result.push({
            operationId: operation.operationId,
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

/** Every operation of a document, path operations first, then webhooks. Throws on an operation without operationId. */
export function listOperationsOf(doc: Document, label = "document"): OperationInfo[] {
  return locateOperations(doc).map(({ operationId, method, path, webhook, pointer, operation }) => {
    if (!operationId) throw new Error(`${label}: ${method.toUpperCase()} ${path} has no operationId`);
    const section = webhook ? "webhooks" : "paths";
    const itemPointer = pointerOf([section, path]);
    const item = doc[section]?.[path] ?? {};
    return {
      operationId,
      method,
      path,
      webhook,
      tags: operation.tags ?? [],
      pointer,
      operation,
      parameters: resolveParameters(doc, item, itemPointer, operation, pointer),
      requestBody: operation.requestBody ? deref(doc, operation.requestBody) : undefined,
    };
  });
}
