// The runner's reads of the contracts (lib/contract), memoized for its hot path: every response asks the same
// pointers again, and a pointer is walked (following each $ref) on every call. The contract patches of the
// self-tests (fault-servers/contract-patch.ts) forget these on every change.
import {
  type ApiName,
  type CheckContext,
  escapeSegment,
  loadContract,
  type OperationInfo,
  type ValidateFunction,
  type ValidationResult,
} from "../../lib/contract/index.js";

/** An operation as the runner carries it: lib/contract's, with the API it belongs to. */
export interface RunnerOperation extends OperationInfo {
  api: ApiName;
}

const operationLists = new Map<ApiName, RunnerOperation[]>();

/** Every operation of the API (paths, then webhooks). */
export function operationsOf(api: ApiName): RunnerOperation[] {
  let list = operationLists.get(api);
  if (!list)
    operationLists.set(
      api,
      (list = loadContract(api)
        .operations()
        .map((op) => ({ ...op, api }))),
    );
  return list;
}

/** The operation with this operationId; throws when the contract has none. */
export function operationOf(api: ApiName, operationId: string): RunnerOperation {
  const found = operationsOf(api).find((op) => op.operationId === operationId);
  if (!found) throw new Error(`${api} has no operation ${operationId}`);
  return found;
}

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
const validators = new Map<string, ValidateFunction>();

/**
 * The top-level properties of the body schema at `bodyPointer` that carry `word` (an `x-` extension), with its text.
 */
export function propertiesWith(api: ApiName, bodyPointer: string, word: string): Map<string, string> {
  const found = new Map<string, string>();
  const properties = resolveAt(api, bodyPointer).properties;
  for (const name of Object.keys(properties ?? {})) {
    const text = (resolveAt(api, `${bodyPointer}/properties/${escapeSegment(name)}`) as Record<string, unknown>)[word];
    if (typeof text === "string") found.set(name, text);
  }
  return found;
}

/** The node at `pointer`, `$ref`s followed, remembered per API and pointer. */
export function resolveAt(api: ApiName, pointer: string): BundleNode {
  const key = `${api}#${pointer}`;
  let node = nodes.get(key);
  if (!node) nodes.set(key, (node = loadContract(api).resolve(pointer) as BundleNode));
  return node;
}

/** Validates `data` against the schema at `pointer`, with the validator remembered per API and pointer. */
export function validateAt(api: ApiName, pointer: string, data: unknown): ValidationResult {
  const key = `${api}#${pointer}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = loadContract(api).validator(pointer);
    validators.set(key, validate);
  }
  const valid = Boolean(validate(data));
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}

const checkContexts = new Map<ApiName, CheckContext>();

/**
 * What lib/contract's checks of one exchange (lib/contract/requests.ts) need, validating through validateAt: the
 * runner judges responses with lib/contract's functions on its memoized validators.
 */
export function checkContextOf(api: ApiName): CheckContext {
  let context = checkContexts.get(api);
  if (!context) {
    context = {
      validators: { validate: (pointer, data) => validateAt(api, pointer, data) },
      deref: loadContract(api).deref,
    };
    checkContexts.set(api, context);
  }
  return context;
}

/** Forgets what was looked up (the loaded contract changed). */
export function forgetLookups(): void {
  nodes.clear();
  validators.clear();
  operationLists.clear();
}
