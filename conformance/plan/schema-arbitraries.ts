// fast-check arbitraries and boundary values from the JSON Schemas (2020-12) of our bundled contracts.
//
// No maintained package converts JSON Schema 2020-12 to fast-check 4 arbitraries (json-schema-fast-check is archived
// and built on fast-check 1; @amritk/generate-examples writes source files instead of returning arbitraries), so this
// small converter covers the keywords our specs use: type (also type arrays with "null"), properties, required,
// additionalProperties, enum, const, pattern, format, minimum/maximum (and exclusive), minLength/maxLength, items,
// minItems/maxItems, minProperties, oneOf/anyOf, if/then/else and not. Every value is finally checked with the same
// Ajv validator the rest of the repository uses, so a keyword this converter only approximates can never make it
// send data the contract calls invalid as if it were valid.
// fast-check's `record` by name: in conformance/, a method called record is the ledger's, and only the judge calls it.
import fc, { record as fieldsArbitrary } from "fast-check";
import {
  type ApiName,
  escapeSegment as pointerSegment,
  type JsonSchema,
  loadContract,
} from "../../lib/contract/index.js";

type Schema = JsonSchema;

/** The schema at `pointer` of the API's bundle (`true`/`false` schemas as they are). */
function schemaAt(api: ApiName, pointer: string): Schema | boolean {
  return loadContract(api).resolve(pointer) as Schema | boolean;
}

const schemaValidator = (api: ApiName, pointer: string) => loadContract(api).validator(pointer);

const MAX_ITEMS = 3;
const MAX_STRING = 24;

/** The types a schema allows, in a stable order; `undefined` when it does not say. */
export function schemaTypes(schema: Schema): string[] | undefined {
  if (schema.type === undefined) {
    if ("const" in schema) return [jsonType(schema.const)];
    if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))] as string[];
    if (schema.properties || schema.required || schema.additionalProperties !== undefined) return ["object"];
    if (schema.items) return ["array"];
    return undefined;
  }
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** fc.stringMatching(pattern), built once per pattern in a process: building one costs fast-check milliseconds (it
 * tokenizes its list of dangerous strings against each new character set), and a run plans the same patterns for many
 * operations. An arbitrary keeps no state between draws, so one instance serves every caller. */
const matchingByPattern = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: RegExp): fc.Arbitrary<string> {
  const key = `/${pattern.source}/${pattern.flags}`;
  let arbitrary = matchingByPattern.get(key);
  if (!arbitrary) matchingByPattern.set(key, (arbitrary = fc.stringMatching(pattern)));
  return arbitrary;
}

function formatArbitrary(format: string | undefined): fc.Arbitrary<string> | undefined {
  switch (format) {
    case "uri":
    case "url":
      // Not fc.webUrl(): building it costs about a second of CPU in every process (fast-check tokenizes its
      // percent-encoded character set up front), more than a whole identity run. These are valid URIs all the same.
      return fc
        .tuple(
          fc.constantFrom("http", "https"),
          fc.domain(),
          fc.array(matching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,7}$/), { maxLength: 3 }),
        )
        .map(([scheme, host, segments]) => `${scheme}://${host}/${segments.join("/")}`);
    case "email":
      // fast-check's addresses are RFC 5321-valid but full of symbols some validators reject; keep them plain.
      return fc
        .tuple(matching(/^[a-z][a-z0-9.]{0,10}[a-z0-9]$/), matching(/^[a-z]{2,10}\.(com|org|net|example)$/))
        .map(([l, d]) => `${l.replaceAll("..", ".")}@${d}`);
    case "uuid":
      return fc.uuid();
    case "date-time":
      return fc
        .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true })
        .map((d) => d.toISOString());
    case "date":
      return fc
        .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case "byte":
      return fc.base64String({ maxLength: MAX_STRING });
    default:
      return undefined;
  }
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, MAX_STRING);
  const withinLength = (s: string) => s.length >= minLength && s.length <= maxLength;
  const formatted = formatArbitrary(schema.format);
  if (formatted) return formatted.filter(withinLength);
  if (typeof schema.pattern === "string") return matching(new RegExp(schema.pattern)).filter(withinLength);
  return fc.string({ minLength, maxLength, unit: "grapheme-ascii" });
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  let min: number | undefined = schema.minimum;
  let max: number | undefined = schema.maximum;
  if (typeof schema.exclusiveMinimum === "number")
    min = integer ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum;
  if (typeof schema.exclusiveMaximum === "number")
    max = integer ? Math.ceil(schema.exclusiveMaximum) - 1 : schema.exclusiveMaximum;
  if (integer) return fc.integer({ min: min ?? -(2 ** 31), max: max ?? 2 ** 31 - 1 });
  // `x-fraction-digits: n` (specs/README.md): a decimal amount with at most n decimals, drawn as whole units of 10^-n,
  // which `multipleOf: 0.01` cannot say of binary doubles (Ajv and Prism judge 0.07 no multiple of 0.01).
  const digits = schema["x-fraction-digits"];
  if (typeof digits === "number") {
    const scale = 10 ** digits;
    const lowest = Math.ceil((min ?? -1e9) * scale) + (typeof schema.exclusiveMinimum === "number" ? 1 : 0);
    const highest = Math.floor((max ?? 1e9) * scale) - (typeof schema.exclusiveMaximum === "number" ? 1 : 0);
    return fc.bigInt({ min: BigInt(lowest), max: BigInt(highest) }).map((units) => Number(units) / scale || 0);
  }
  return fc
    .double({
      min: min ?? -1e9,
      max: max ?? 1e9,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: typeof schema.exclusiveMinimum === "number",
      maxExcluded: typeof schema.exclusiveMaximum === "number",
    })
    .map((n) => (Object.is(n, -0) ? 0 : n));
}

/** An arbitrary of values for the schema at `pointer` (not yet filtered by Ajv; see `validArbitrary`). */
function rawArbitrary(api: ApiName, pointer: string, depth: number): fc.Arbitrary<unknown> {
  const schema = schemaAt(api, pointer);
  if (
    schema === true ||
    typeof schema !== "object" ||
    Object.keys(schema).filter((k) => !k.startsWith("x-") && k !== "description").length === 0
  ) {
    return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  for (const keyword of ["oneOf", "anyOf"] as const) {
    if (Array.isArray(schema[keyword])) {
      const branches = schema[keyword].map((branch: Schema, index: number) => {
        const branchPointer = `${pointer}/${keyword}/${index}`;
        // A branch that only adds `required` (catalog's IssuanceReply) is generated from the parent's properties.
        const onlyConstrains = !branch.type && !branch.properties && !branch.$ref && !branch.const && !branch.enum;
        return onlyConstrains
          ? objectArbitrary(api, pointer, schema, depth, branch.required ?? [])
          : rawArbitrary(api, branchPointer, depth);
      });
      return fc.oneof(...branches);
    }
  }
  const types = schemaTypes(schema) ?? ["string", "integer", "boolean"];
  return fc.oneof(...types.map((type) => typedArbitrary(api, pointer, schema, type, depth)));
}

function typedArbitrary(
  api: ApiName,
  pointer: string,
  schema: Schema,
  type: string,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return numberArbitrary(schema, true);
    case "number":
      return numberArbitrary(schema, false);
    case "string":
      return stringArbitrary(schema);
    case "array": {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS));
      if (depth > 4) return fc.constant(Array.from({ length: minLength }, () => null));
      const items = schema.items
        ? rawArbitrary(api, `${pointer}/items`, depth + 1)
        : fc.oneof(fc.string({ maxLength: 8 }), fc.integer());
      return fc.array(items, { minLength, maxLength });
    }
    case "object":
      return objectArbitrary(api, pointer, schema, depth, []);
    default:
      throw new Error(`${api} ${pointer}: cannot generate values of type ${type}`);
  }
}

function objectArbitrary(
  api: ApiName,
  pointer: string,
  schema: Schema,
  depth: number,
  extraRequired: string[],
): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.keys(schema.properties ?? {});
  const required = new Set<string>([...(schema.required ?? []), ...extraRequired]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of properties) {
    if (depth > 4 && !required.has(name)) continue;
    model[name] = rawArbitrary(api, `${pointer}/properties/${pointerSegment(name)}`, depth + 1);
  }
  const record = fieldsArbitrary(model, {
    requiredKeys: properties.filter((name) => required.has(name) && name in model),
  });
  const extra = schema.additionalProperties;
  if (extra && typeof extra === "object") {
    // A map such as pay's balance per currency code: a few extra keys that are not declared properties.
    const key = matching(/^[A-Z]{3}$/).filter((k) => !properties.includes(k));
    const values = fc.dictionary(key, rawArbitrary(api, `${pointer}/additionalProperties`, depth + 1), {
      maxKeys: 3,
      minKeys: schema.minProperties ?? 0,
    });
    return fc.tuple(record, values).map(([declared, more]) => ({ ...more, ...declared }));
  }
  const minProperties = schema.minProperties;
  if (minProperties) return record.filter((value) => Object.keys(value).length >= minProperties);
  return record;
}

/** The converter's values before the Ajv filter (the generation tests bound how many the filter throws away). */
export function unfilteredArbitrary(api: ApiName, pointer: string): fc.Arbitrary<unknown> {
  return rawArbitrary(api, pointer, 0);
}

/** Values that the schema at `pointer` accepts, shrinking towards small ones; checked with Ajv. */
export function validArbitrary(api: ApiName, pointer: string): fc.Arbitrary<unknown> {
  const validate = schemaValidator(api, pointer);
  return rawArbitrary(api, pointer, 0).filter((value) => validate(value));
}

/**
 * Boundary values of the schema at `pointer`: limits of numbers and lengths, every enum member, the smallest and
 * the fullest object, empty and minimal arrays. Only values the schema accepts are returned, at most `limit`.
 */
export function boundaryValues(api: ApiName, pointer: string, limit = 12): unknown[] {
  const validate = schemaValidator(api, pointer);
  const seen = new Set<string>();
  const result: unknown[] = [];
  for (const value of rawBoundaries(api, pointer, 0)) {
    const key = JSON.stringify(value);
    if (key === undefined || seen.has(key) || !validate(value)) continue;
    seen.add(key);
    result.push(value);
    if (result.length >= limit) break;
  }
  return result;
}

function sampleOne(api: ApiName, pointer: string): unknown {
  return fc.sample(rawArbitrary(api, pointer, 2), { seed: 42, numRuns: 1 })[0];
}

function rawBoundaries(api: ApiName, pointer: string, depth: number): unknown[] {
  const schema = schemaAt(api, pointer);
  if (typeof schema !== "object") return []; // `true` has no boundaries, `false` no values
  if ("const" in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return [...schema.enum];
  for (const keyword of ["oneOf", "anyOf"] as const) {
    if (Array.isArray(schema[keyword])) {
      return schema[keyword].flatMap((branch: Schema, index: number) =>
        branch.required && !branch.type && !branch.properties
          ? []
          : rawBoundaries(api, `${pointer}/${keyword}/${index}`, depth),
      );
    }
  }
  const values: unknown[] = [];
  for (const type of schemaTypes(schema) ?? []) {
    switch (type) {
      case "null":
        values.push(null);
        break;
      case "boolean":
        values.push(false, true);
        break;
      case "integer":
      case "number":
        values.push(...numberBoundaries(schema, type === "integer"));
        break;
      case "string":
        values.push(...stringBoundaries(api, pointer, schema));
        break;
      case "array":
        values.push(...arrayBoundaries(api, pointer, schema, depth));
        break;
      case "object":
        values.push(...objectBoundaries(api, pointer, schema, depth));
        break;
    }
  }
  return values;
}

/** The bounds and their neighbours, or a few ordinary values when the schema sets none. */
function numberBoundaries(schema: Schema, integer: boolean): unknown[] {
  const values: unknown[] = [];
  const min =
    typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + (integer ? 1 : 0.01) : schema.minimum;
  const max =
    typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum - (integer ? 1 : 0.01) : schema.maximum;
  if (min !== undefined) values.push(min, min + 1);
  if (max !== undefined) values.push(max, max - 1);
  if (min === undefined && max === undefined) values.push(0, 1, integer ? 2 ** 31 - 1 : 0.5);
  else if (max === undefined) values.push(integer ? 2 ** 31 - 1 : 1e9);
  return values;
}

/** A sample, and the shortest and longest strings when no pattern or format constrains the characters. */
function stringBoundaries(api: ApiName, pointer: string, schema: Schema): unknown[] {
  const values: unknown[] = [];
  const sample = sampleOne(api, pointer);
  if (typeof sample === "string") values.push(sample);
  if (!schema.pattern && !schema.format) {
    const minLength = schema.minLength ?? 0;
    values.push("x".repeat(minLength));
    if (schema.maxLength !== undefined) values.push("x".repeat(schema.maxLength));
    else values.push("x".repeat(Math.max(minLength, 255)));
  }
  return values;
}

/** The shortest array, and one of the items' boundaries. */
function arrayBoundaries(api: ApiName, pointer: string, schema: Schema, depth: number): unknown[] {
  const values: unknown[] = [];
  const min = schema.minItems ?? 0;
  const items = schema.items && depth < 4 ? rawBoundaries(api, `${pointer}/items`, depth + 1) : [];
  values.push(items.slice(0, Math.max(min, 0)));
  if (items.length > 0) values.push(Array.from({ length: Math.max(min, 1) }, (_, i) => items[i % items.length]));
  return values;
}

/** The object with only its required properties, the fullest object, and (at the top) each property varied. */
function objectBoundaries(api: ApiName, pointer: string, schema: Schema, depth: number): unknown[] {
  const values: unknown[] = [];
  const properties = Object.keys(schema.properties ?? {});
  const required: string[] = schema.required ?? [];
  const first = (name: string) => {
    const options = depth < 4 ? rawBoundaries(api, `${pointer}/properties/${pointerSegment(name)}`, depth + 1) : [];
    return options.length ? options[0] : sampleOne(api, `${pointer}/properties/${pointerSegment(name)}`);
  };
  const minimal = Object.fromEntries(required.filter((n) => properties.includes(n)).map((n) => [n, first(n)]));
  const full = Object.fromEntries(properties.map((n) => [n, first(n)]));
  values.push(minimal, full);
  // Each property at each of its other boundaries, one at a time, on top of the fullest object.
  if (depth === 0) {
    for (const name of properties) {
      const others = rawBoundaries(api, `${pointer}/properties/${pointerSegment(name)}`, depth + 1).slice(1, 4);
      for (const option of others) values.push({ ...full, [name]: option });
    }
  }
  return values;
}
