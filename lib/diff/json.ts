// The differ reads documents it did not write (any file given to `contracts diff`), so it walks them as plain JSON
// and narrows each value where it uses it, instead of trusting a typed OpenAPI model that an invalid file would break.

/** A JSON object (or array) read by key. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** True for objects and arrays: values whose children can be read by key. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null;
}

export function isArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/** The value itself when it is an object, otherwise an empty one (a missing `properties` has no properties). */
export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

/** The value itself when it is an array, otherwise an empty one. */
export function asArray(value: unknown): readonly unknown[] {
  return isArray(value) ? value : [];
}

/** The child `key` of an object or array; undefined when there is none or the value has no children. */
export function field(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined;
}

/** The keys of an object (`Object.keys`), none for anything else. */
export function keysOf(value: unknown): string[] {
  return isObject(value) ? Object.keys(value) : [];
}

/** The strings of an array, e.g. `required`; none when the value is not an array. */
export function stringList(value: unknown): string[] {
  return isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** The string child `key`, or "" when it is missing or not a string. */
export function stringField(value: unknown, key: string): string {
  const text = field(value, key);
  return typeof text === "string" ? text : "";
}
