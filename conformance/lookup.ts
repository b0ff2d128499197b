// Memoized reads of the bundles for the runner's hot path: every response asks the same pointers again, and
// lib/openapi walks the document (following each $ref) on every call. The contract patches of the self-tests
// (fault-servers/contract-patch.ts) forget these on every change.
import { type ApiName, resolvePointer, schemaValidator, type ValidationResult } from "../lib/openapi.js";

/**
 * A node of a bundle as the runner reads it (an OpenAPI object or a JSON Schema), with the members it uses typed;
 * anything else is `unknown` until narrowed.
 */
export interface BundleNode {
  [key: string]: unknown;
  type?: string | string[];
  name?: string;
  in?: string;
  required?: boolean | string[];
  schema?: BundleNode;
  content?: Record<string, BundleNode>;
  headers?: Record<string, BundleNode>;
  examples?: unknown;
  example?: unknown;
  default?: unknown;
  value?: unknown;
  properties?: Record<string, BundleNode>;
  items?: BundleNode;
  additionalProperties?: boolean | BundleNode;
  oneOf?: BundleNode[];
  anyOf?: BundleNode[];
  $ref?: string;
}

const nodes = new Map<string, BundleNode>();
const validators = new Map<string, ReturnType<typeof schemaValidator>>();

/** resolvePointer, remembered per API and pointer. */
export function resolveAt(api: ApiName, pointer: string): BundleNode {
  const key = `${api}#${pointer}`;
  let node = nodes.get(key);
  if (!node) nodes.set(key, (node = resolvePointer(api, pointer) as BundleNode));
  return node;
}

/** validateAt, with the validator remembered per API and pointer. */
export function validateAt(api: ApiName, pointer: string, data: unknown): ValidationResult {
  const key = `${api}#${pointer}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = schemaValidator(api, pointer);
    validators.set(key, validate);
  }
  const valid = Boolean(validate(data));
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}

/** Forgets what was looked up (the loaded contract changed). */
export function forgetLookups(): void {
  nodes.clear();
  validators.clear();
}
