// The keywords of a JSON Schema that constrain a value itself (type, allowed values, bounds), compared without
// recursing into sub-schemas: each change is emitted with how far it widens or narrows what is accepted.
import { type Extent, extentName } from "./changes.js";
import { isArray, isObject, type JsonObject, stringList } from "./json.js";
import { show } from "./walk.js";

export const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;
export const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;

export const kebab = (keyword: string) => keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export type Emit = (rule: string, extent: Extent, message: string, tolerantReader?: boolean) => void;

/** `true` accepts everything, `false` nothing; at least one of the two schemas is such a boolean. */
export function compareBooleanSchemas(b: unknown, a: unknown, emit: Emit): void {
  if (b === a) return;
  const accepts = (s: unknown) => s !== false; // `true` and any object schema accept something
  const open = (s: unknown) => s === true || (isObject(s) && Object.keys(s).length === 0);
  const extent = { widened: open(a) && !open(b), narrowed: !accepts(a) || (open(b) && !open(a)) };
  emit(`schema-${extentName(extent)}`, extent, `schema ${show(b)} became ${show(a)}`);
}

function typeSet(schema: JsonObject): string[] | undefined {
  if (schema.type === undefined) return undefined;
  const types = stringList(isArray(schema.type) ? schema.type : [schema.type]);
  if (schema.nullable === true && !types.includes("null")) types.push("null");
  return types;
}

export function compareTypes(b: JsonObject, a: JsonObject, emit: Emit): void {
  const before = typeSet(b);
  const after = typeSet(a);
  // undefined accepts every type; `number` includes `integer`.
  const covers = (set: string[] | undefined, type: string) =>
    !set || set.includes(type) || (type === "integer" && set.includes("number"));
  const extent = {
    widened: before !== undefined && (after === undefined || after.some((t) => !covers(before, t))),
    narrowed: after !== undefined && (before === undefined || before.some((t) => !covers(after, t))),
  };
  if (extent.widened || extent.narrowed)
    emit(
      `type-${extentName(extent)}`,
      extent,
      `type ${before ? show(before) : "(any)"} became ${after ? show(after) : "(any)"}`,
    );
}

/** `const` and `enum` as one list of allowed values; undefined when any value is allowed. */
function allowedValues(schema: JsonObject): readonly unknown[] | undefined {
  if ("const" in schema) return [schema.const];
  return isArray(schema.enum) ? schema.enum : undefined;
}

export function compareAllowedValues(b: JsonObject, a: JsonObject, emit: Emit): void {
  const before = allowedValues(b);
  const after = allowedValues(a);
  if (!before && !after) return;
  const keys = (values: readonly unknown[] | undefined) => new Set((values ?? []).map((v) => JSON.stringify(v)));
  const beforeKeys = keys(before);
  const afterKeys = keys(after);
  const added = before && after ? after.filter((v) => !beforeKeys.has(JSON.stringify(v))) : [];
  const removed = before && after ? before.filter((v) => !afterKeys.has(JSON.stringify(v))) : [];
  const extent = { widened: !after || added.length > 0, narrowed: !before || removed.length > 0 };
  if (!extent.widened && !extent.narrowed) return;
  const parts = !before
    ? [`restricted to ${show(after)}`]
    : !after
      ? [`no longer restricted to ${show(before)}`]
      : [
          ...(added.length > 0 ? [`values added: ${added.map(show).join(", ")}`] : []),
          ...(removed.length > 0 ? [`values removed: ${removed.map(show).join(", ")}`] : []),
        ];
  emit(`enum-${extentName(extent)}`, extent, parts.join("; "));
}

const isBound = (value: unknown): value is number | undefined => value === undefined || typeof value === "number";

export function compareBounds(b: JsonObject, a: JsonObject, emit: Emit): void {
  for (const [keywords, lower] of [
    [LOWER_BOUNDS, true],
    [UPPER_BOUNDS, false],
  ] as const) {
    for (const keyword of keywords) {
      const before = b[keyword];
      const after = a[keyword];
      if (before === after) continue;
      if (!isBound(before) || !isBound(after)) {
        emit(
          `${kebab(keyword)}-changed`,
          { widened: true, narrowed: true },
          `${keyword} ${show(before)} became ${show(after)}`,
        ); // 3.0 boolean form
        continue;
      }
      // A bound that appears, or moves inwards, narrows; one that disappears, or moves outwards, widens.
      const tighter = after !== undefined && (before === undefined || (lower ? after > before : after < before));
      const extent = { widened: !tighter, narrowed: tighter };
      emit(`${kebab(keyword)}-${extentName(extent)}`, extent, `${keyword} ${show(before)} became ${show(after)}`);
    }
  }
  if (b.multipleOf !== a.multipleOf) {
    emit(
      "multiple-of-changed",
      { widened: true, narrowed: true },
      `multipleOf ${show(b.multipleOf)} became ${show(a.multipleOf)}`,
    );
  }
}
