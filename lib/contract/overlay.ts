// OpenAPI Overlay 1.0 (https://spec.openapis.org/overlay/v1.0.0): a deployment's known deviations, kept as a separate
// file beside it and applied to a canonical bundle in memory, never written over it. Every command that reads a
// contract (`contracts mock`, `sandbox`, `conform`, `proxy`, `npm run generate -- --overlay`) loads an overlay here.
//
// The actions are applied by openapi-format's `openapiOverlay` (maintained, ~300k weekly downloads). We chose it over
// openapi-overlays-js, whose JSONPath engine (`jsonpath`) predates RFC 9535 and has no `?@ == 'x'` filters without
// parentheses; openapi-format evaluates targets with jsonpathly 3, which parses RFC 9535 syntax (filters, normalized
// bracket paths such as `$.paths['/api/overlay']`, descendants). What openapi-format does not do, we do here: validate
// the document against Overlay 1.0's schema first (it only logs and skips a malformed action), and refuse an action
// whose target selects nothing (it only counts them), so that a stale overlay is an error, not a silent no-op.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { openapiOverlay } from "openapi-format";
import { parse as parseYaml } from "yaml";
import { UsageError } from "../cli.js";
import { API_NAMES, type ApiName, loadBundle } from "./bundle.js";
import { type Document, isReference } from "./model.js";
import { useContractDocument } from "./index.js";
import { listOperationsOf, type OperationInfo } from "./operations.js";
import { refPointer, resolveAt } from "./refs.js";
import { describeErrors } from "./validation.js";

export interface OverlayAction {
  target: string;
  description?: string;
  update?: unknown;
  remove?: boolean;
  [extension: `x-${string}`]: unknown;
}

export interface OverlayDocument {
  overlay: string;
  info: { title: string; version: string; [extension: `x-${string}`]: unknown };
  extends?: string;
  actions: OverlayAction[];
  [extension: `x-${string}`]: unknown;
}

/** An overlay read from a file and applied to one API's canonical bundle. */
export interface LoadedOverlay {
  file: string;
  api: ApiName;
  overlay: OverlayDocument;
  /** The canonical bundle with the overlay's actions applied (a copy; the canonical one is unchanged). */
  document: Document;
}

/** A malformed overlay, or one that does not fit its contract: the CLI prints it as a usage error. */
export class OverlayError extends UsageError {}

// The Overlay 1.0.0 schema as published (spec.openapis.org/overlay/1.0/schema/2024-10-17), with `overlay` held to
// 1.0.x: 1.1's `copy` and its changed `update` semantics are not what this file's readers expect.
export const OVERLAY_1_0_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    overlay: { type: "string", pattern: "^1\\.0\\.\\d+(-.+)?$" },
    info: { $ref: "#/$defs/info-object" },
    extends: { type: "string", format: "uri-reference" },
    actions: { type: "array", minItems: 1, items: { $ref: "#/$defs/action-object" } },
  },
  required: ["overlay", "info", "actions"],
  $ref: "#/$defs/specification-extensions",
  unevaluatedProperties: false,
  $defs: {
    "info-object": {
      type: "object",
      properties: { title: { type: "string" }, version: { type: "string" } },
      required: ["title", "version"],
      $ref: "#/$defs/specification-extensions",
      unevaluatedProperties: false,
    },
    "action-object": {
      type: "object",
      properties: {
        target: { type: "string", pattern: "^\\$" },
        description: { type: "string" },
        update: { type: ["string", "boolean", "object", "array", "number", "null"] },
        remove: { type: "boolean", default: false },
      },
      required: ["target"],
      $ref: "#/$defs/specification-extensions",
      unevaluatedProperties: false,
    },
    "specification-extensions": { patternProperties: { "^x-": true } },
  },
} as const;

let validateSchema: ReturnType<Ajv2020["compile"]> | undefined;

/** What is wrong with an overlay document (empty when it is a valid Overlay 1.0 document). */
export function overlayProblems(value: unknown): string[] {
  validateSchema ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(
    OVERLAY_1_0_SCHEMA,
  );
  if (!validateSchema(value)) return describeErrors(validateSchema.errors).split("; ");
  const problems: string[] = [];
  (value as OverlayDocument).actions.forEach((action, index) => {
    const hasUpdate = Object.hasOwn(action, "update");
    if (!hasUpdate && action.remove !== true)
      problems.push(`/actions/${index} (${action.target}) has neither update nor remove: true`);
    if (hasUpdate && action.remove === true)
      problems.push(`/actions/${index} (${action.target}) has both update and remove: true (the update would be lost)`);
  });
  return problems;
}

/** Reads and validates an overlay file (YAML or JSON). */
export function readOverlayFile(file: string): OverlayDocument {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new OverlayError(`overlay ${file}: cannot read the file`);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new OverlayError(`overlay ${file}: not YAML or JSON: ${(error as Error).message.split("\n")[0]}`);
  }
  const problems = overlayProblems(value);
  if (problems.length > 0)
    throw new OverlayError(`overlay ${file} is not an Overlay 1.0 document: ${problems.slice(0, 5).join("; ")}`);
  return value as OverlayDocument;
}

/** The API an overlay's `extends` names (its last path segment `<api>.json`, `.yaml` or `.yml`), if it names one. */
export function overlayApi(overlay: OverlayDocument): ApiName | undefined {
  const name = /([a-z]+)\.(json|ya?ml)$/.exec(overlay.extends ?? "")?.[1];
  return (API_NAMES as readonly string[]).includes(name ?? "") ? (name as ApiName) : undefined;
}

/**
 * The document with the overlay's actions applied, in order; throws an OverlayError naming every action whose target
 * selects nothing (or that the engine refused) in the document.
 */
export async function applyOverlay(document: Document, overlay: OverlayDocument, source: string): Promise<Document> {
  // openapi-format reports a JSONPath it cannot parse, or an action it refuses, on console.error and skips it.
  const engineMessages: string[] = [];
  const consoleError = console.error;
  console.error = (...parts: unknown[]) => void engineMessages.push(parts.map(String).join(" "));
  let result: Awaited<ReturnType<typeof openapiOverlay>>;
  try {
    result = await openapiOverlay(structuredClone(document) as never, { overlaySet: overlay as never });
  } finally {
    console.error = consoleError;
  }
  const unused = new Set(result.resultData.unusedActions as unknown[]);
  const stale = overlay.actions
    .map((action, index) => ({ action, index }))
    .filter(({ action }) => unused.has(action))
    .map(({ action, index }) => `#${index + 1} ${action.target}`);
  if (stale.length > 0)
    throw new OverlayError(
      `overlay ${source}: ${stale.length} action(s) select nothing in the contract: ${stale.join(", ")}${engineMessages.length ? ` (${engineMessages.join("; ")})` : ""}`,
    );
  return result.data as unknown as Document;
}

/**
 * Reads `file`, checks it fits `api` (when its `extends` names an API, it must be this one; without `api`, `extends`
 * must name one) and applies it to that API's canonical bundle.
 */
export async function loadOverlay(file: string, api?: ApiName): Promise<LoadedOverlay> {
  const overlay = readOverlayFile(file);
  const named = overlayApi(overlay);
  if (api && named && named !== api)
    throw new OverlayError(`overlay ${file} extends the ${named} contract, not ${api}`);
  const target = api ?? named;
  if (!target)
    throw new OverlayError(
      `overlay ${file}: its extends (${overlay.extends ?? "absent"}) names no API; set extends to <api>.json (${API_NAMES.join(", ")})`,
    );
  return { file, api: target, overlay, document: await applyOverlay(loadBundle(target), overlay, file) };
}

/**
 * `--overlay <file>` of a command: loads the overlay and makes this process's loadContract(api) read the overlaid
 * document until the returned function restores the canonical one. `forget` drops what callers memoized of the
 * contract (the runner's lookups) at both ends.
 */
export async function installOverlay(
  file: string,
  api: ApiName | undefined,
  forget: () => void = () => {},
): Promise<{ loaded: LoadedOverlay; restore: () => void }> {
  const loaded = await loadOverlay(file, api);
  useContractDocument(loaded.api, loaded.document);
  forget();
  return {
    loaded,
    restore: () => {
      useContractDocument(loaded.api, undefined);
      forget();
    },
  };
}

/** A node with every `$ref` in it replaced by its target; a `$ref` back into its own ancestry stays as it is. */
function expanded(document: Document, node: unknown, followed: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => expanded(document, item, followed));
  if (node === null || typeof node !== "object") return node;
  if (isReference(node)) {
    const pointer = refPointer(node);
    if (followed.includes(pointer)) return node;
    return expanded(document, resolveAt(document, pointer), [...followed, pointer]);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, expanded(document, value, followed)]));
}

/** Where an operation is and what it accepts and answers, every `$ref` followed, as text to compare. */
function operationText(document: Document, operation: OperationInfo): string {
  const { method, path, parameters } = operation;
  const resolved = parameters.map(({ parameter }) => parameter);
  return JSON.stringify(expanded(document, { method, path, ...operation.operation, parameters: resolved }));
}

/** An operation an overlay adds, removes or changes. */
export interface OperationChange {
  operationId: string;
  change: "added" | "removed" | "changed";
}

/** An operation change as the CLI prints it, e.g. `listOverlays (changed)`. */
export const operationChangeText = ({ operationId, change }: OperationChange): string => `${operationId} (${change})`;

/**
 * The operations an overlaid document adds, removes or changes against the canonical bundle (what they accept or
 * answer, `$ref`s followed: a change to a shared schema changes every operation that uses it); empty when the overlay
 * changes only what lies outside the operations (info, servers).
 */
export function changedOperations(api: ApiName, document: Document): OperationChange[] {
  const canonical = loadBundle(api);
  const before = new Map(listOperationsOf(canonical, api).map((operation) => [operation.operationId, operation]));
  const after = new Map(listOperationsOf(document, api).map((operation) => [operation.operationId, operation]));
  const changes: OperationChange[] = [];
  for (const [operationId, operation] of before) {
    const overlaid = after.get(operationId);
    if (!overlaid) changes.push({ operationId, change: "removed" });
    else if (operationText(canonical, operation) !== operationText(document, overlaid))
      changes.push({ operationId, change: "changed" });
  }
  for (const operationId of after.keys()) if (!before.has(operationId)) changes.push({ operationId, change: "added" });
  return changes;
}
