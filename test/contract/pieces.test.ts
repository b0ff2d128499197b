// The pure pieces of lib/contract: JSON pointers (RFC 6901), coercion by style/explode, router specificity.
import { describe, expect, it } from "vitest";
import {
  canonicalPointer,
  coerceForm,
  coerceParameter,
  coerceScalar,
  type JsonSchema,
  listOperationsOf,
  locateOperations,
  type Parameter,
  parseForm,
  parsePointer,
  pointerOf,
  rawParameter,
  Router,
  valueAt,
  type Document,
} from "../../lib/contract/index.js";

const identity = (schema: JsonSchema): JsonSchema => schema;

describe("pointers", () => {
  it("escapes and unescapes ~ and / (RFC 6901)", () => {
    expect(pointerOf(["paths", "/a~b/{id}", "get"])).toBe("/paths/~1a~0b~1{id}/get");
    expect(parsePointer("#/paths/~1a~0b~1{id}/get")).toEqual(["paths", "/a~b/{id}", "get"]);
    expect(parsePointer("")).toEqual([]);
    expect(() => parsePointer("paths")).toThrow(/not a JSON pointer/);
  });

  it("reads values and follows $refs to the canonical pointer, refusing cycles", () => {
    const doc = { a: { $ref: "#/b" }, b: { c: [10, 20] }, loop: { $ref: "#/loop" } };
    expect(valueAt(doc, "/b/c/1")).toBe(20);
    expect(valueAt(doc, "/a/c")).toBeUndefined();
    expect(canonicalPointer(doc, "/a/c/0")).toBe("/b/c/0");
    expect(() => canonicalPointer(doc, "/loop")).toThrow(/circular/);
    expect(() => canonicalPointer(doc, "/b/nothing")).toThrow(/nothing at/);
  });
});

describe("coercion", () => {
  it("turns text into the schema's scalar types and leaves what does not fit as text", () => {
    expect(coerceScalar("12", { type: "integer" })).toBe(12);
    expect(coerceScalar("1.5", { type: "integer" })).toBe("1.5");
    expect(coerceScalar("1.5", { type: "number" })).toBe(1.5);
    expect(coerceScalar("true", { type: "boolean" })).toBe(true);
    expect(coerceScalar("12", { type: ["string", "null"] })).toBe("12");
    expect(coerceScalar("yes", { type: "boolean" })).toBe("yes");
  });

  it("splits arrays as the parameter's style and explode declare", () => {
    const ints: JsonSchema = { type: "array", items: { type: "integer" } };
    const query = new URLSearchParams("ids=1&ids=2&csv=3,4&piped=5|6");
    const source = { pathParams: { ids: "7,8" }, query, headers: new Headers({ "x-ids": "9,10" }) };
    const read = (parameter: Parameter) =>
      coerceParameter(parameter, ints, rawParameter(parameter, ints, source)!, identity);
    expect(read({ name: "ids", in: "query" })).toEqual([1, 2]);
    expect(read({ name: "csv", in: "query", explode: false })).toEqual([3, 4]);
    expect(read({ name: "piped", in: "query", style: "pipeDelimited", explode: false })).toEqual([5, 6]);
    expect(read({ name: "ids", in: "path" })).toEqual([7, 8]);
    expect(read({ name: "x-ids", in: "header" })).toEqual([9, 10]);
    expect(rawParameter({ name: "missing", in: "query" }, ints, source)).toBeUndefined();
  });

  it("coerces form fields by the body schema's properties and keeps unknown fields as sent", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        page: { type: "integer" },
        tags: { type: "array", items: { type: "integer" } },
        name: { type: "string" },
      },
    };
    expect(coerceForm(schema, { page: "2", tags: ["1", "x"], name: "7", extra: "y" }, identity)).toEqual({
      page: 2,
      tags: [1, "x"],
      name: "7",
      extra: "y",
    });
  });
});

describe("forms", () => {
  it("parses every field as an own property, repeated ones as arrays, __proto__ and constructor included", () => {
    const form = parseForm("__proto__=x&constructor=y&scope=openid&scope=email");
    expect(Object.getPrototypeOf(form)).toBe(Object.prototype);
    expect(Object.entries(form)).toEqual([
      ["__proto__", "x"],
      ["constructor", "y"],
      ["scope", ["openid", "email"]],
    ]);
  });
});

describe("router", () => {
  const doc: Document = {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/items/{id}": { get: { operationId: "getItem" }, delete: { operationId: "deleteItem" } },
      "/items/new": { get: { operationId: "newItemForm" } },
      "/items/{id}/parts/{part}": { get: { operationId: "getPart" } },
    },
  };
  const router = new Router(listOperationsOf(doc));

  it("prefers the most specific template", () => {
    expect(router.route("GET", "/items/new")?.operation.operationId).toBe("newItemForm");
    expect(router.route("GET", "/items/42")).toMatchObject({
      operation: { operationId: "getItem" },
      pathParams: { id: "42" },
    });
    expect(router.route("GET", "/items/4/parts/x%2Fy")?.pathParams).toEqual({ id: "4", part: "x/y" });
    expect(router.route("GET", "/items/4/extra")).toBeUndefined();
  });

  it("reports the methods a path has", () => {
    expect(router.allowedMethods("/items/42").sort()).toEqual(["delete", "get"]);
    expect(router.allowedMethods("/elsewhere")).toEqual([]);
  });

  it("refuses an operation without operationId", () => {
    expect(() => listOperationsOf({ ...doc, paths: { "/x": { get: {} } } }, "t")).toThrow(/GET \/x has no operationId/);
  });

  it("locates operations of any document, with or without an operationId", () => {
    const anyDoc: Document = {
      ...doc,
      paths: { "/x/{id}": { get: {}, post: { operationId: "postX" } } },
      webhooks: { ping: { post: {} } },
    };
    expect(
      locateOperations(anyDoc).map(({ operationId, method, path, webhook, pointer }) => ({
        operationId,
        method,
        path,
        webhook,
        pointer,
      })),
    ).toEqual([
      { operationId: undefined, method: "get", path: "/x/{id}", webhook: false, pointer: "/paths/~1x~1{id}/get" },
      { operationId: "postX", method: "post", path: "/x/{id}", webhook: false, pointer: "/paths/~1x~1{id}/post" },
      { operationId: undefined, method: "post", path: "ping", webhook: true, pointer: "/webhooks/ping/post" },
    ]);
  });
});
