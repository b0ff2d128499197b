// Invalid data: each mutation changes one valid request in one way the contract forbids (a wrong type, a missing
// required field or parameter, an out-of-range number, a string of the wrong length, a pattern, enum or format
// violation, an undeclared property of a closed object, a malformed body). Whether the result is really invalid is
// decided by the contract's own validators (cases.ts), so a mutation that happens to stay valid is never sent as
// negative data.
import {
  type ApiName,
  escapeSegment as pointerSegment,
  type JsonSchema,
  loadContract,
  type Operation,
  type Parameter,
  type RequestBody,
} from "../../lib/contract/index.js";
import { schemaTypes } from "./schema-arbitraries.js";
import type { Location } from "../model/cases.js";

type Schema = JsonSchema;

/** The node at `pointer` of the API's bundle, `$ref`s followed; the caller states the type its position declares. */
function nodeAt<T>(api: ApiName, pointer: string): T {
  return loadContract(api).resolve(pointer) as T;
}

export interface Mutation {
  /** One line for reports, e.g. `body /variants/0/prices: wrong type (string instead of array)`. */
  description: string;
  location: Location;
  /** The replacement value; `REMOVE` deletes the field or parameter. */
  value: unknown;
  /** The value is sent as the raw body text instead of being serialized. */
  raw?: boolean;
}

export const REMOVE = Symbol("remove");
export const MALFORMED_JSON = '{"unterminated": ';

function describe(location: Location): string {
  return location.in === "body"
    ? `body ${location.path.length ? `/${location.path.join("/")}` : "(root)"}`
    : `${location.in} parameter ${location.name}`;
}

/** Values of other JSON types, and strings that do not parse as the type, for parameters sent as text. */
function wrongTypeValues(types: string[], textual: boolean): Array<[string, unknown]> {
  const options: Array<[string, unknown]> = [];
  const allows = (type: string) => types.includes(type) || (type === "integer" && types.includes("number"));
  if (textual) {
    if (!allows("string")) {
      if (types.some((t) => t === "integer" || t === "number")) options.push(["not a number", "not-a-number"]);
      if (types.includes("integer")) options.push(["not an integer", "1.5"]);
      if (types.includes("boolean")) options.push(["not a boolean", "maybe"]);
    }
    return options;
  }
  if (!allows("string")) options.push(["string", "not-a-string-value"]);
  if (!allows("integer")) options.push(["integer", 12345]);
  if (!allows("boolean") && !allows("integer")) options.push(["boolean", true]);
  if (!allows("object")) options.push(["object", { unexpected: "object" }]);
  if (!allows("array")) options.push(["array", ["unexpected", "array"]]);
  if (!allows("null")) options.push(["null", null]);
  if (types.includes("integer") && !types.includes("number")) options.push(["fraction", 1.5]);
  return options.slice(0, 3);
}

const NOT_MATCHING = ["!", " ", "zz zz", "0", "\u00e9\u00e9", "-".repeat(300), ""];
const BAD_FORMATS: Record<string, string> = {
  uri: "not a uri",
  url: "not a url",
  email: "not-an-email",
  uuid: "not-a-uuid",
  "date-time": "yesterday",
  date: "31/12/2024",
};

/** Mutations of the value at one location, from its schema. */
function mutationsAt(schema: Schema, location: Location, textual: boolean, required: boolean): Mutation[] {
  const result: Mutation[] = [];
  const where = describe(location);
  const add = (what: string, value: unknown) => result.push({ description: `${where}: ${what}`, location, value });
  if (required) add("required but missing", REMOVE);
  const types = schemaTypes(schema) ?? [];
  if (types.length > 0) for (const [name, value] of wrongTypeValues(types, textual)) add(`wrong type (${name})`, value);
  const numeric = types.includes("integer") || types.includes("number");
  const asText = (n: number) => (textual ? String(n) : n);
  if (numeric && typeof schema.minimum === "number")
    add(`below the minimum ${schema.minimum}`, asText(schema.minimum - 1));
  if (numeric && typeof schema.maximum === "number")
    add(`above the maximum ${schema.maximum}`, asText(schema.maximum + 1));
  if (numeric && typeof schema.exclusiveMinimum === "number")
    add(`not above the exclusive minimum ${schema.exclusiveMinimum}`, asText(schema.exclusiveMinimum));
  if (numeric && typeof schema.exclusiveMaximum === "number")
    add(`not below the exclusive maximum ${schema.exclusiveMaximum}`, asText(schema.exclusiveMaximum));
  if (types.includes("string")) {
    if (typeof schema.minLength === "number" && schema.minLength > 0)
      add(`shorter than minLength ${schema.minLength}`, "x".repeat(schema.minLength - 1));
    if (typeof schema.maxLength === "number")
      add(`longer than maxLength ${schema.maxLength}`, "x".repeat(schema.maxLength + 1));
    if (typeof schema.pattern === "string") {
      const pattern = new RegExp(schema.pattern, "u");
      const bad = NOT_MATCHING.find((candidate) => !pattern.test(candidate));
      if (bad !== undefined) add(`does not match the pattern ${schema.pattern}`, bad);
    }
    if (typeof schema.format === "string" && BAD_FORMATS[schema.format])
      add(`not a valid ${schema.format}`, BAD_FORMATS[schema.format]);
  }
  if (Array.isArray(schema.enum))
    add(
      `not one of ${JSON.stringify(schema.enum)}`,
      typeof schema.enum[0] === "string" || textual ? `not-${String(schema.enum[0])}` : 987654,
    );
  if ("const" in schema)
    add(
      `not the constant ${JSON.stringify(schema.const)}`,
      typeof schema.const === "string" || textual ? `not-${String(schema.const)}` : 987654,
    );
  if (types.includes("array") && typeof schema.minItems === "number" && schema.minItems > 0)
    add(`fewer than minItems ${schema.minItems}`, []);
  return result;
}

/** Every mutation of an operation's parameters and request body, walking the body schema a few levels deep. */
export function operationMutations(api: ApiName, opPointer: string): Mutation[] {
  const operation = nodeAt<Operation>(api, opPointer);
  const result: Mutation[] = [];
  (operation.parameters ?? []).forEach((_: unknown, index: number) => {
    const parameter = nodeAt<Parameter>(api, `${opPointer}/parameters/${index}`);
    if (parameter.in === "cookie") return;
    const schema = parameter.schema ? nodeAt<Schema>(api, `${opPointer}/parameters/${index}/schema`) : {};
    const location: Location = { in: parameter.in, name: parameter.name };
    // A path parameter cannot be left out of the URL; every other required parameter can.
    result.push(...mutationsAt(schema, location, true, Boolean(parameter.required) && parameter.in !== "path"));
  });
  if (operation.requestBody) {
    const requestBody = nodeAt<RequestBody>(api, `${opPointer}/requestBody`);
    const [mediaType] = Object.keys(requestBody.content ?? {});
    if (mediaType) {
      const schemaPointer = `${opPointer}/requestBody/content/${pointerSegment(mediaType)}/schema`;
      const textual = mediaType === "application/x-www-form-urlencoded";
      if (requestBody.required)
        result.push({ description: "body: required but missing", location: { in: "body", path: [] }, value: REMOVE });
      if (mediaType.includes("json"))
        result.push({
          description: "body: malformed JSON",
          location: { in: "body", path: [] },
          value: MALFORMED_JSON,
          raw: true,
        });
      walkBody(api, schemaPointer, [], textual, result, 0);
    }
  }
  return result;
}

function walkBody(
  api: ApiName,
  pointer: string,
  path: string[],
  textual: boolean,
  result: Mutation[],
  depth: number,
): void {
  const schema = nodeAt<Schema>(api, pointer);
  const location: Location = { in: "body", path };
  if (depth > 0) {
    // `required` is handled on the parent object below.
    result.push(...mutationsAt(schema, location, textual && depth === 1, false));
  } else if (!textual) {
    for (const [name, value] of wrongTypeValues(schemaTypes(schema) ?? ["object"], false))
      result.push({ description: `body: wrong type (${name})`, location, value });
  }
  if (depth >= 4) return;
  const required: string[] = schema.required ?? [];
  for (const name of required)
    result.push({
      description: `body /${[...path, name].join("/")}: required but missing`,
      location: { in: "body", path: [...path, name] },
      value: REMOVE,
    });
  if (schema.additionalProperties === false) {
    result.push({
      description: `body ${path.length ? `/${path.join("/")}` : "(root)"}: undeclared property in a closed object`,
      location: { in: "body", path: [...path, "unexpected_property"] },
      value: "unexpected",
    });
  }
  for (const name of Object.keys(schema.properties ?? {}))
    walkBody(api, `${pointer}/properties/${pointerSegment(name)}`, [...path, name], textual, result, depth + 1);
  if (schema.items && !textual) walkBody(api, `${pointer}/items`, [...path, "0"], textual, result, depth + 1);
}

/** Applies a mutation to a copy of `body`; returns `undefined` when the place it names does not exist. */
export function mutateBody(body: unknown, path: string[], value: unknown): { body: unknown } | undefined {
  if (path.length === 0) return { body: value };
  const copy = structuredClone(body);
  let node: unknown = copy;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  if (node === null || typeof node !== "object") return undefined;
  const last = path[path.length - 1]!;
  if (value === REMOVE) {
    if (!(last in node)) return undefined;
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete (node as Record<string, unknown>)[last];
  } else {
    if (Array.isArray(node) && !(last in node)) return undefined;
    (node as Record<string, unknown>)[last] = value;
  }
  return { body: copy };
}
