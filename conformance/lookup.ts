// Memoized reads of the bundles for the runner's hot path: every response asks the same pointers again, and
// lib/openapi walks the document (following each $ref) on every call. The contract patches of the self-tests
// (fault-servers/contract-patch.ts) forget these on every change.
import { type ApiName, resolvePointer, schemaValidator, type ValidationResult } from "../lib/openapi.js";

type Node = ReturnType<typeof resolvePointer>;
const nodes = new Map<string, Node>();
const validators = new Map<string, ReturnType<typeof schemaValidator>>();

/** resolvePointer, remembered per API and pointer. */
export function resolveAt(api: ApiName, pointer: string): Node {
  const key = `${api}#${pointer}`;
  if (!nodes.has(key)) nodes.set(key, resolvePointer(api, pointer));
  return nodes.get(key);
}

/** validateAt, with the validator remembered per API and pointer. */
export function validateAt(api: ApiName, pointer: string, data: unknown): ValidationResult {
  const key = `${api}#${pointer}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = schemaValidator(api, pointer);
    validators.set(key, validate);
  }
  const valid = validate(data) as boolean;
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}

/** Forgets what was looked up (the loaded contract changed). */
export function forgetLookups(): void {
  nodes.clear();
  validators.clear();
}
