// Every example in the four bundled contracts validates against its schema with Ajv (JSON Schema 2020-12):
// media-type examples of requests, responses and webhooks, parameter and header examples, and schema `examples`.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDocument, visit } from "yaml";
import { fromPackageRoot } from "../../lib/paths.js";
import {
  API_NAMES,
  type ApiName,
  describeErrors,
  loadBundle,
  pointerSegment,
  resolvePointer,
  validateAt,
} from "../support/bundle-nodes.js";

interface ExampleCase {
  name: string;
  schemaPointer: string;
  value: unknown;
}

const SCHEMA_KEYWORDS = [
  "type",
  "properties",
  "$ref",
  "oneOf",
  "anyOf",
  "allOf",
  "const",
  "enum",
  "format",
  "pattern",
  "items",
];

/** Walks a bundle and collects every example together with the pointer of the schema it must satisfy. */
function collectExamples(api: ApiName): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const visit = (node: unknown, pointer: string, parentKey: string | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, `${pointer}/${index}`, parentKey));
      return;
    }
    if (!node || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    const isMapOfExamples = record.examples && typeof record.examples === "object" && !Array.isArray(record.examples);
    // Media types, parameters and headers: `examples` is a map of Example Objects beside `schema`.
    if (isMapOfExamples && record.schema) {
      for (const [name, example] of Object.entries(record.examples as Record<string, unknown>)) {
        const resolved = resolvePointer(api, `${pointer}/examples/${pointerSegment(name)}`) as {
          value?: unknown;
          externalValue?: string;
        };
        if (resolved && "value" in resolved) {
          cases.push({
            name: `${pointer}/examples/${name}`,
            schemaPointer: `${pointer}/schema`,
            value: resolved.value,
          });
        } else {
          expect.fail(
            `${api}${pointer}/examples/${name} has no inline value (${JSON.stringify(example).slice(0, 80)})`,
          );
        }
      }
    }
    // Schemas: `examples` is an array of instances (not below `properties`, where it would be a property name).
    if (Array.isArray(record.examples) && parentKey !== "properties" && SCHEMA_KEYWORDS.some((k) => k in record)) {
      record.examples.forEach((value, index) =>
        cases.push({ name: `${pointer}/examples/${index}`, schemaPointer: pointer, value }),
      );
    }
    for (const [key, child] of Object.entries(record)) {
      if (key === "examples" || key === "example") continue;
      visit(child, `${pointer}/${pointerSegment(key)}`, key);
    }
  };
  visit(loadBundle(api), "", undefined);
  return cases;
}

describe.each(API_NAMES)("%s examples", (api) => {
  const cases = collectExamples(api);

  it("has named examples to check", () => {
    expect(cases.length).toBeGreaterThan(5);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s validates", (_name, example) => {
    const result = validateAt(api, example.schemaPointer, example.value);
    expect(result.valid, describeErrors(result.errors)).toBe(true);
  });
});

describe("YAML keeps every text whole", () => {
  // A plain scalar ends at " #": `description: Badge color (#RGB)` would silently lose "(#RGB)" as a comment.
  it.each(API_NAMES)("specs/%s.yaml has no comment after a value on the same line", (api) => {
    const document = parseDocument(readFileSync(fromPackageRoot("specs", `${api}.yaml`), "utf8"));
    const cut: string[] = [];
    visit(document, {
      Scalar(_key, node) {
        if (node.comment) cut.push(`${String(node.value)} #${node.comment}`);
      },
    });
    expect(cut).toEqual([]);
  });
});
