// Parameters arrive as text; their schemas speak of integers, booleans and arrays. This turns the text into the
// values the schema describes (as the parameter's style and explode declare), so Ajv validates the real thing.
// What cannot be coerced stays text, so the validator reports it instead of the coercion hiding it.
import type { JsonSchema, Parameter } from "./model.js";

/** Where a request's parameters are read from. */
export interface ParameterSource {
  pathParams: Record<string, string>;
  query: URLSearchParams;
  headers: { get(name: string): string | null };
}

/** Follows a schema's `$ref` (the contract's deref), so coercion sees the real type. */
export type SchemaResolver = (schema: JsonSchema) => JsonSchema;

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const INTEGER = /^-?\d+$/;

function types(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return typeof schema.type === "string" ? [schema.type] : [];
}

/** One text value as the scalar its schema's type names (left as text when it is not one). */
export function coerceScalar(text: string, schema: JsonSchema): unknown {
  const allowed = types(schema);
  if (allowed.includes("integer") && INTEGER.test(text)) return Number(text);
  if (allowed.includes("number") && NUMBER.test(text)) return Number(text);
  if (allowed.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  if (allowed.includes("null") && text === "" && !allowed.includes("string")) return null;
  return text;
}

function style(parameter: Parameter): string {
  return parameter.style ?? (parameter.in === "query" || parameter.in === "cookie" ? "form" : "simple");
}

function explode(parameter: Parameter): boolean {
  return parameter.explode ?? style(parameter) === "form";
}

const DELIMITERS: Record<string, string> = { form: ",", simple: ",", spaceDelimited: " ", pipeDelimited: "|" };

/** The raw text of a parameter in a request: a list for an exploded query array, undefined when absent. */
export function rawParameter(
  parameter: Parameter,
  schema: JsonSchema,
  source: ParameterSource,
): string | string[] | undefined {
  switch (parameter.in) {
    case "path":
      return source.pathParams[parameter.name];
    case "header":
      return source.headers.get(parameter.name) ?? undefined;
    case "query": {
      const values = source.query.getAll(parameter.name);
      if (values.length === 0) return undefined;
      return types(schema).includes("array") && explode(parameter) ? values : values[0];
    }
    default:
      return undefined;
  }
}

/** A parameter's raw text as the value its schema describes; arrays are split as its style and explode say. */
export function coerceParameter(
  parameter: Parameter,
  schema: JsonSchema,
  raw: string | string[],
  resolve: SchemaResolver,
): unknown {
  if (types(schema).includes("array")) {
    const items = schema.items ? resolve(schema.items) : {};
    const delimiter = DELIMITERS[style(parameter)] ?? ",";
    const parts = Array.isArray(raw) ? raw : raw === "" ? [] : raw.split(delimiter);
    return parts.map((part) => coerceScalar(part, items));
  }
  return coerceScalar(Array.isArray(raw) ? (raw[0] ?? "") : raw, schema);
}

/** Form fields (`application/x-www-form-urlencoded`) as the values of the body schema's properties. */
export function coerceForm(
  schema: JsonSchema,
  fields: Record<string, string | string[]>,
  resolve: SchemaResolver,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(fields)) {
    const property = schema.properties?.[name];
    if (!property) {
      result[name] = raw;
      continue;
    }
    const resolved = resolve(property);
    if (types(resolved).includes("array")) {
      const items = resolved.items ? resolve(resolved.items) : {};
      result[name] = (Array.isArray(raw) ? raw : [raw]).map((part) => coerceScalar(part, items));
    } else {
      result[name] = Array.isArray(raw) ? raw.map((part) => coerceScalar(part, resolved)) : coerceScalar(raw, resolved);
    }
  }
  return result;
}
