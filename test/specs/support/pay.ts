// Shared by the pay spec tests: named examples, schema pointers and the example requests and responses.
import { expect } from "vitest";
import {
  describeErrors,
  findOperation,
  requestSchemaPointer,
  resolvePointer,
  responseSchemaPointer,
  validateAt,
} from "../../support/bundle-nodes.js";

export const API = "pay" as const;

export type Json = any;

/** The value of a named example of a request body. */
export function requestExample(operationId: string, name: string): Json {
  const op = findOperation(API, operationId);
  return structuredClone(
    resolvePointer(API, `${op.pointer}/requestBody/content/application~1json/examples/${name}`).value,
  );
}

/** The value of a named example of a response body. */
export function responseExample(operationId: string, status: string, name: string): Json {
  const op = findOperation(API, operationId);
  return structuredClone(
    resolvePointer(API, `${op.pointer}/responses/${status}/content/application~1json/examples/${name}`).value,
  );
}

export function expectValid(pointer: string, data: unknown): void {
  const result = validateAt(API, pointer, data);
  expect(result.valid, describeErrors(result.errors)).toBe(true);
}

export function expectInvalid(pointer: string, data: unknown): void {
  expect(validateAt(API, pointer, data).valid).toBe(false);
}

/** Derives a payload from `base` by one mutation and returns it. */
export function mutate<T>(base: T, change: (copy: any) => void): T {
  const copy = structuredClone(base);
  change(copy);
  return copy;
}

export const REQUEST = {
  listShops: requestSchemaPointer(API, "listShops"),
  listOrders: requestSchemaPointer(API, "listOrders"),
  createOrder: requestSchemaPointer(API, "createOrder"),
  getBalance: requestSchemaPointer(API, "getBalance"),
};
export const RESPONSE = {
  listShops: responseSchemaPointer(API, "listShops", "200"),
  listOrders: responseSchemaPointer(API, "listOrders", "200"),
  createOrder: responseSchemaPointer(API, "createOrder", "200"),
  getBalance: responseSchemaPointer(API, "getBalance", "200"),
};
export const ERROR = "/components/schemas/ErrorEnvelope";
export const ORDER = "/components/schemas/Order";
export const SHOP = "/components/schemas/Shop";

export const shopsResponse = responseExample("listShops", "200", "twoShops");
export const ordersResponse = responseExample("listOrders", "200", "paidAndUnpaidOrders");
export const createdResponse = responseExample("createOrder", "200", "orderCreated");
export const balanceResponse = responseExample("getBalance", "200", "balances");
export const paidOrder = ordersResponse.data[0];
export const unpaidOrder = ordersResponse.data[1];
export const requests = {
  listShops: requestExample("listShops", "listShops"),
  listOrders: requestExample("listOrders", "firstPage"),
  createOrder: requestExample("createOrder", "orderWithReceipt"),
  getBalance: requestExample("getBalance", "balance"),
};
