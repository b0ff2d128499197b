// Shared by the seed-conforming tests: the schema pointers of a request, response or parameter, and the checks
// that a seed's payload is accepted or refused.
import { expect, it } from "vitest";
import { type ApiName, describeErrors, findOperation, pointerSegment, validateAt } from "../../support/bundle-nodes.js";

/** A payload, the schema it is checked against, and the seed sentence (or standard) it stands for. */
export type Case = [why: string, pointer: string, payload: unknown];

export const JSON_MEDIA = pointerSegment("application/json");

/** The body schema of one response of an operation (a `default` that is a `$ref` is followed to its component). */
export function response(api: ApiName, operationId: string, status: string, media = JSON_MEDIA): string {
  const op = findOperation(api, operationId);
  const declared = op.operation.responses[status];
  const base =
    typeof declared?.$ref === "string" ? declared.$ref.slice(1) : `${op.pointer}/responses/${pointerSegment(status)}`;
  return `${base}/content/${media}/schema`;
}

export function request(api: ApiName, operationId: string, media = JSON_MEDIA): string {
  return `${findOperation(api, operationId).pointer}/requestBody/content/${media}/schema`;
}

export function parameter(api: ApiName, operationId: string, name: string): string {
  const op = findOperation(api, operationId);
  const index = (op.operation.parameters as Array<{ name: string }>).findIndex((p) => p.name === name);
  expect(index, `${operationId} has no parameter ${name}`).toBeGreaterThanOrEqual(0);
  return `${op.pointer}/parameters/${index}/schema`;
}

export function checkAccepted(api: ApiName, cases: Case[]): void {
  it.each(cases)("accepts: %s", (_why, pointer, payload) => {
    const result = validateAt(api, pointer, payload);
    expect(result.valid, describeErrors(result.errors)).toBe(true);
  });
}

export function checkRefused(api: ApiName, cases: Case[]): void {
  it.each(cases)("refuses: %s", (_why, pointer, payload) => {
    expect(validateAt(api, pointer, payload).valid).toBe(false);
  });
}
