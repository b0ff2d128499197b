// The deviations a response body shows from the canonical contract, by cause: what `contracts overlay record` turns
// into Overlay actions, and what a run with `--overlay` looks for again to tell which actions it confirmed. A body is
// validated against the canonical contract's schema for its status, by the closest branch of a union (the success
// envelope or the error envelope), keeping only the errors the judge fails on (not a broken x-assumption, not a field
// beyond a closed schema), and each error is located where the schema says it. Deviations at one location are one
// cause (causeOf in conformance/report/causes.ts, the one maker of cause keys).
import {
  type ApiName,
  canonicalContract,
  type Contract,
  documentedMediaType,
  documentedResponse,
  type ErrorObject,
  joinPointer,
  parsePointer,
  responseKeyFor,
  responseSchemaPointer,
  valueAt,
} from "../../lib/contract/index.js";
import { closedResponseAssumption, responseErrorWord } from "../contract/words.js";

export const SCHEMA_CHECK = "response_schema_conformance";

/** One deviation of one body, at one place of the canonical schema. */
export type Deviation = {
  check: typeof SCHEMA_CHECK;
  operationId: string;
  /** The body's place (JSON Pointer into the body) where it was seen. */
  instancePath: string;
} & (
  | {
      /** A value of another type or value than documented: `location` is the property's schema as written. */
      kind: "value";
      location: string;
      observed: unknown;
    }
  | {
      /** Documented required keys absent and undocumented keys present: `location` is the object's schema. */
      kind: "keys";
      location: string;
      missing: string[];
      extra: Record<string, unknown>;
    }
);

interface SchemaNode {
  properties?: Record<string, unknown>;
  items?: unknown;
  additionalProperties?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
}

/** The schema as written at an instance path below `root` (through properties and items), or undefined. */
function siteOf(contract: Contract, root: string, instancePath: string): string | undefined {
  let site = root;
  for (const key of parsePointer(instancePath)) {
    const pointer = contract.canonicalPointer(site);
    const node = contract.resolve(pointer) as SchemaNode | undefined;
    if (!node || typeof node !== "object") return undefined;
    if (node.properties && Object.hasOwn(node.properties, key)) site = joinPointer(pointer, "properties", key);
    else if (node.items && /^\d+$/.test(key)) site = joinPointer(pointer, "items");
    else if (node.additionalProperties && typeof node.additionalProperties === "object")
      site = joinPointer(pointer, "additionalProperties");
    else return undefined;
  }
  return site;
}

/** Depth of the shallowest error's place in the body (as the judge picks the closest branch of a union). */
function shallowest(errors: readonly ErrorObject[]): number {
  return Math.min(...errors.map((error) => parsePointer(error.instancePath).length));
}

/** The hard errors of the body against the closest branch of the schema at `pointer`, and that branch. */
function closestErrors(contract: Contract, pointer: string, body: unknown): { branch: string; errors: ErrorObject[] } {
  const schema = contract.resolve(pointer) as SchemaNode;
  const union = schema.anyOf ? "anyOf" : schema.oneOf ? "oneOf" : undefined;
  const branches = union ? (schema[union] ?? []).map((_, i) => joinPointer(pointer, union, i)) : [pointer];
  const judged = branches.map((branch) => {
    const errors = contract.validate(branch, body).errors;
    const hard = errors.filter(
      (error) =>
        closedResponseAssumption(error) === undefined &&
        responseErrorWord(contract.api, branch, error, "x-assumption") === undefined,
    );
    return { branch, errors, hard };
  });
  judged.sort(
    (a, b) =>
      Number(a.hard.length > 0) - Number(b.hard.length > 0) ||
      shallowest(b.hard) - shallowest(a.hard) ||
      a.hard.length - b.hard.length,
  );
  const closest = judged[0]!;
  return { branch: closest.branch, errors: closest.hard.length > 0 ? closest.errors : [] };
}

const UNION_KEYWORDS = new Set(["anyOf", "oneOf", "not", "if", "then", "else"]);

/**
 * The deviations of one response body of `operationId` from the canonical contract (empty when it conforms, when
 * its status is not documented, or when its body is not JSON: those are other checks' findings).
 */
export function deviationsOf(api: ApiName, operationId: string, status: number, bodyText: string): Deviation[] {
  const contract = canonicalContract(api);
  const operation = contract.findOperation(operationId);
  if (!operation) return [];
  const key = responseKeyFor(operation, status);
  if (key === undefined) return [];
  const documented = documentedResponse(contract, operation, key);
  const mediaType = documentedMediaType(documented.response.content ?? {}, "application/json");
  if (mediaType === undefined) return [];
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return [];
  }
  const { branch, errors } = closestErrors(contract, responseSchemaPointer(documented, mediaType), body);
  const found = new Map<string, Deviation>();
  // Undocumented keys are only a deviation beside a missing documented key (a renamed key): alone, a field beyond a
  // closed schema breaks our reading, not the provider's word.
  const extras = new Map<string, Record<string, unknown>>();
  for (const error of errors) {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    if (extra !== undefined) {
      const object = valueAt(body, error.instancePath) as Record<string, unknown>;
      extras.set(error.instancePath, { ...extras.get(error.instancePath), [extra]: object[extra] });
    }
  }
  for (const error of errors) {
    if (UNION_KEYWORDS.has(error.keyword) || closedResponseAssumption(error) !== undefined) continue;
    const missing = error.keyword === "required" ? (error.params as { missingProperty: string }).missingProperty : "";
    const site = siteOf(contract, branch, error.instancePath);
    if (site === undefined) continue;
    if (missing) {
      const location = contract.canonicalPointer(site);
      const id = `${location} ${error.instancePath}`;
      const previous = found.get(id);
      const deviation: Deviation =
        previous?.kind === "keys"
          ? { ...previous, missing: [...previous.missing, missing] }
          : {
              check: SCHEMA_CHECK,
              operationId,
              instancePath: error.instancePath,
              kind: "keys",
              location,
              missing: [missing],
              extra: extras.get(error.instancePath) ?? {},
            };
      found.set(id, deviation);
    } else if (error.instancePath !== "") {
      const id = `${site} ${error.instancePath}`;
      if (!found.has(id))
        found.set(id, {
          check: SCHEMA_CHECK,
          operationId,
          instancePath: error.instancePath,
          kind: "value",
          location: site,
          observed: valueAt(body, error.instancePath),
        });
    }
  }
  return [...found.values()];
}
