// The response examples of a recorded overlay: the documented examples of the operations a cause was proven on,
// rewritten into the deployment's shape (a renamed key renamed, a value of another type converted), so that a mock
// started with the overlay serves what the deployment answers. These actions carry `x-examples-of` (the causes), not
// a cause of their own: they document, they are not deviations a run confirms.
import {
  type ApiName,
  canonicalContract,
  documentedResponse,
  isReference,
  joinPointer,
  parsePointer,
  refPointer,
  responseKeyFor,
} from "../../lib/contract/index.js";
import type { OverlayAction } from "../../lib/contract/overlay.js";
import type { Deviation } from "./deviations.js";

/** Whether the observed value is the documented one in another form (a number as its text, a text as its number). */
const sameValueAnotherType = (documented: unknown, observed: unknown) =>
  (typeof observed === "string" && typeof documented === "number") ||
  (typeof observed === "number" && typeof documented === "string" && /^-?\d+(\.\d+)?$/.test(documented));

/** The same value in the deployment's form: a number as its text, a numeric text as its number, else as observed. */
function converted(documented: unknown, observed: unknown): unknown {
  if (!sameValueAnotherType(documented, observed)) return observed;
  return typeof observed === "string" ? String(documented) : Number(documented);
}

/** Every place in `value` that an instance path names, any array index standing for every element. */
function places(value: unknown, segments: string[]): Array<{ parent: Record<string, unknown>; key: string }> {
  const [head, ...rest] = segments;
  if (head === undefined || value === null || typeof value !== "object") return [];
  if (Array.isArray(value) && /^\d+$/.test(head)) return value.flatMap((item) => places(item, rest));
  if (!Object.hasOwn(value, head)) return [];
  const record = value as Record<string, unknown>;
  return rest.length === 0 ? [{ parent: record, key: head }] : places(record[head], rest);
}

/** Rewrites what the deviation is about in an example; false when the example shows none of it (an error example). */
function rewrite(value: unknown, deviation: Deviation, documents: (value: unknown) => boolean): boolean {
  let changed = false;
  if (deviation.kind === "value") {
    // A value one row of a list had (a campaign's `list: false`) is that row's, not every row's: in a list, only the
    // documented value in another form is written over each row.
    const inList = parsePointer(deviation.instancePath).some((segment) => /^\d+$/.test(segment));
    for (const { parent, key } of places(value, parsePointer(deviation.instancePath))) {
      if (!documents(parent[key]) || (inList && !sameValueAnotherType(parent[key], deviation.observed))) continue;
      parent[key] = converted(parent[key], deviation.observed);
      changed = true;
    }
    return changed;
  }
  const objects =
    deviation.instancePath === ""
      ? [value as Record<string, unknown>]
      : places(value, parsePointer(deviation.instancePath)).map(({ parent, key }) => parent[key]);
  const renamed = deviation.missing.length === 1 && Object.keys(deviation.extra).length === 1;
  for (const object of objects) {
    if (!object || typeof object !== "object" || !deviation.missing.every((key) => Object.hasOwn(object, key)))
      continue;
    const record = object as Record<string, unknown>;
    changed = true;
    if (renamed) record[Object.keys(deviation.extra)[0]!] = record[deviation.missing[0]!];
    else Object.assign(record, deviation.extra);
    for (const key of deviation.missing) delete record[key];
  }
  return changed;
}

/** The actions that rewrite the examples of the responses the deviations were seen in. */
export function exampleActions(
  api: ApiName,
  deviations: Array<{ cause: string; deviation: Deviation; status: number }>,
  jsonPathOf: (pointer: string) => string,
): OverlayAction[] {
  const contract = canonicalContract(api);
  const rewritten = new Map<string, { value: unknown; causes: Set<string> }>();
  for (const { cause, deviation, status } of deviations) {
    const operation = contract.findOperation(deviation.operationId);
    const key = operation && responseKeyFor(operation, status);
    if (!operation || key === undefined) continue;
    const documented = documentedResponse(contract, operation, key);
    const media = joinPointer(documented.pointer, "content", "application/json");
    const examples = (contract.resolve(media) as { examples?: Record<string, unknown> } | undefined)?.examples ?? {};
    for (const [name, example] of Object.entries(examples)) {
      const pointer = isReference(example) ? refPointer(example) : joinPointer(media, "examples", name);
      const entry = rewritten.get(pointer) ?? {
        value: structuredClone((contract.resolve(pointer) as { value?: unknown }).value),
        causes: new Set<string>(),
      };
      if (entry.value === undefined) continue;
      if (!rewrite(entry.value, deviation, (value) => contract.validate(deviation.location, value).valid)) continue;
      entry.causes.add(cause);
      rewritten.set(pointer, entry);
    }
  }
  return [...rewritten.entries()].flatMap(([pointer, { value, causes }]) => [
    {
      target: jsonPathOf(joinPointer(pointer, "value")),
      description: "The documented example, replaced by the next action with the same in the deployment's shape.",
      remove: true,
      "x-examples-of": [...causes],
    },
    {
      target: jsonPathOf(pointer),
      description: "The documented example in the deployment's shape, so that a mock with this overlay serves it.",
      update: { value },
      "x-examples-of": [...causes],
    },
  ]);
}
