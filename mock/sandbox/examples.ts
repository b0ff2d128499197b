// The contracts' named examples as seed data, so the sandbox starts with exactly the data the reference shows.
import { type ApiName, findOperation, pointerSegment, resolvePointer } from "../../lib/openapi.js";

/** A fresh copy of a named response example, e.g. `responseExample("links", "listDomains", "twoDomains")`. */
export function responseExample<T>(api: ApiName, operationId: string, name: string, status = "200", mediaType = "application/json"): T {
  const op = findOperation(api, operationId);
  const pointer = `${op.pointer}/responses/${status}/content/${pointerSegment(mediaType)}/examples/${pointerSegment(name)}`;
  return structuredClone(resolvePointer(api, pointer).value) as T;
}
