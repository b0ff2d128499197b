// Puts the reason of a refusal into the API's own error body. Which field carries the message is read from the
// contract (the documented error response and its example), not listed here, so that a changed envelope follows.
import { type ApiName, joinPointer, type JsonSchema, loadContract, responseKeyFor } from "../lib/contract/index.js";

/** One violation as Prism reports it (also in its `sl-violations` header, with `request` before the path). */
export interface Violation {
  path?: string[];
  code?: string | number;
  message: string;
}

/** The violations in one line, e.g. "Request body must have required property 'domain'; ...". */
export function describeViolations(violations: readonly Violation[]): string {
  return violations.map((v) => v.message).join("; ");
}

/**
 * `body` (the error example Prism chose) with its message replaced by the violations, when the contract lets us
 * say where the message goes: the first string property of the example that the schema does not pin down (no
 * `const`, `enum` or `not`, and not the `x-error-envelope` status property; prose before codes) and that still validates with the
 * violations in it. Anything else (no documented body, a body that is not an object) is returned unchanged.
 */
export function explainRefusal(api: ApiName, operationId: string, status: number, mediaType: string, body: unknown, violations: readonly Violation[]): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body) || !mediaType.endsWith("json")) return body;
  const contract = loadContract(api);
  const operation = contract.findOperation(operationId);
  const key = operation && responseKeyFor(operation, status);
  if (!operation || key === undefined) return body;
  const documentedSchema = contract.response(operation, key)?.content?.[mediaType]?.schema;
  if (!documentedSchema) return body; // no schema for this media type
  const schemaPointer = joinPointer(operation.pointer, "responses", key, "content", mediaType, "schema");
  const schema = contract.deref<JsonSchema>(documentedSchema);
  const statusProperty = (contract.document["x-error-envelope"] as { property?: string } | undefined)?.property;
  const message = describeViolations(violations);
  // RFC 6749 §5.2 allows no `"` or `\\` and only printable ASCII in error_description: the plainer form fits.
  const plainMessage = message.replaceAll('"', "'").replaceAll("\\", "/").replace(/[^\x20-\x7E]/g, "?");
  // Prose (a value with a space) is the message; a code such as OAuth's `error: invalid_grant` is not.
  const candidates = Object.entries(body).sort(([, a], [, b]) => Number(isProse(b)) - Number(isProse(a)));
  for (const [name, value] of candidates) {
    if (typeof value !== "string" || name === statusProperty) continue;
    const declared = schema.properties?.[name];
    const property = declared ? contract.deref<JsonSchema>(declared) : {};
    if ("const" in property || "enum" in property || "not" in property) continue;
    for (const text of [message, plainMessage]) {
      const explained = { ...body, [name]: text };
      if (contract.validate(schemaPointer, explained).valid) return explained;
    }
  }
  return body;
}

const isProse = (value: unknown) => typeof value === "string" && /\s/.test(value.trim());
