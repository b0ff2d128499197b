// Generators turn schema names into type, class and variable names: a schema named after a JavaScript or TypeScript
// global (`Error`, `Date`, `Record`, `Response`) shadows it or clashes with it in their output.
import { expect, it } from "vitest";
import { API_NAMES, loadContract } from "../../lib/contract/index.js";

// TypeScript's global types that are no value of globalThis (utility types and the lib's interfaces).
const TYPESCRIPT_GLOBALS = [
  "Partial",
  "Required",
  "Readonly",
  "Record",
  "Pick",
  "Omit",
  "Exclude",
  "Extract",
  "NonNullable",
  "Parameters",
  "ReturnType",
  "InstanceType",
  "Awaited",
  "PropertyKey",
  "PromiseLike",
  "ArrayLike",
  "Iterable",
  "Iterator",
  "RequestInit",
  "ResponseInit",
  "HeadersInit",
  "BodyInit",
];

it("no schema is named after a JavaScript or TypeScript global", () => {
  const globals = new Set([...Object.getOwnPropertyNames(globalThis), ...TYPESCRIPT_GLOBALS]);
  expect(globals.has("Error")).toBe(true);
  const clashes = API_NAMES.flatMap((api) =>
    Object.keys(loadContract(api).document.components?.schemas ?? {})
      .filter((name) => globals.has(name))
      .map((name) => `${api}: ${name}`),
  );
  expect(clashes).toEqual([]);
});
