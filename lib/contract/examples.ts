// Examples of a media type, parameter or header: its named examples (`examples`, refs followed), else its
// `example`, else its schema's `examples`. Callers get copies, so seeding state from them never edits the bundle.
import { type Example, isReference, type JsonSchema, type Reference } from "./model.js";

export interface NamedExample {
  /** The example's name; `example` for a lone `example`, `schema[i]` for schema examples. */
  name: string;
  summary?: string;
  value: unknown;
}

interface ExampleHolder {
  example?: unknown;
  examples?: Record<string, Example | Reference>;
  schema?: JsonSchema;
}

/** The examples of a node, in document order; `deref` follows `$ref`s of the bundle. */
export function examplesOf(node: ExampleHolder, deref: <T>(node: T | Reference) => T): NamedExample[] {
  const named = Object.entries(node.examples ?? {}).map(([name, example]) => {
    const resolved = isReference(example) ? deref<Example>(example) : example;
    return {
      name,
      ...(resolved.summary === undefined ? {} : { summary: resolved.summary }),
      value: structuredClone(resolved.value),
    };
  });
  if (named.length > 0) return named;
  if ("example" in node) return [{ name: "example", value: structuredClone(node.example) }];
  const schema = node.schema ? deref<JsonSchema>(node.schema) : undefined;
  return (schema?.examples ?? []).map((value, index) => ({ name: `schema[${index}]`, value: structuredClone(value) }));
}

/** A value for a schema when no example is given: its default, first enum value or const (undefined otherwise). */
export function schemaFallback(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if ("default" in schema) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if ("const" in schema) return schema.const;
  return undefined;
}
