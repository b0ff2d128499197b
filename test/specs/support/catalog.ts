// Shared by the catalog spec tests: schema pointers, named examples and the recorded gaps of the bundle.
import { expect } from "vitest";
import {
  describeErrors,
  loadBundle,
  pointerSegment,
  requestSchemaPointer,
  resolvePointer,
  responseSchemaPointer,
  validateAt,
} from "../../support/bundle-nodes.js";

export const API = "catalog" as const;

export const shopSchema = responseSchemaPointer(API, "getShop", "200");
export const categoriesSchema = responseSchemaPointer(API, "listCategories", "200");
export const createRequestSchema = requestSchemaPointer(API, "createProduct");
export const productSchema = responseSchemaPointer(API, "createProduct", "200");
export const scopeErrorSchema = responseSchemaPointer(API, "createProduct", "403");
export const otherErrorSchema = responseSchemaPointer(API, "createProduct", "default");
export const eventSchema = requestSchemaPointer(API, "issueGoods");
export const replySchema = responseSchemaPointer(API, "issueGoods", "200");

/** A deep copy of one named example of a media type object (pointer to `.../content/application~1json`). */
export function example(mediaPointer: string, name: string): any {
  const media = resolvePointer(API, mediaPointer);
  const found = media?.examples?.[name];
  if (!found) throw new Error(`no example ${name} at ${mediaPointer}`);
  return structuredClone(resolvePointer(API, `${mediaPointer}/examples/${name}`).value);
}

export const mediaOf = (schemaPointer: string) => schemaPointer.replace(/\/schema$/, "");

export function expectValid(pointer: string, data: unknown): void {
  const result = validateAt(API, pointer, data);
  expect(result.valid, describeErrors(result.errors)).toBe(true);
}

export function expectInvalid(pointer: string, data: unknown): void {
  expect(validateAt(API, pointer, data).valid).toBe(false);
}

/** Every `x-undocumented` sentence of the bundle, with the pointer where it lives. */
export function allUndocumented(): Array<{ at: string; text: string }> {
  const found: Array<{ at: string; text: string }> = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) node.forEach((child, i) => walk(child, `${at}/${i}`));
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "x-undocumented" && Array.isArray(value))
          for (const text of value) found.push({ at, text: String(text) });
        else walk(value, `${at}/${pointerSegment(key)}`);
      }
    }
  };
  walk(loadBundle(API), "");
  return found;
}
