// Shared by the identity spec tests: the bundle, its examples (cloned, so a test may change them) and pointers.
import { expect } from "vitest";
import {
  describeErrors,
  findOperation,
  loadBundle,
  requestSchemaPointer,
  resolvePointer,
  responseSchemaPointer,
  validateAt,
} from "../../support/bundle-nodes.js";

export const API = "identity" as const;
export const FORM = "application/x-www-form-urlencoded";
export const doc = loadBundle(API) as any;

export const clone = <T>(value: T): T => structuredClone(value);

export function expectValid(pointer: string, data: unknown): void {
  const result = validateAt(API, pointer, data);
  expect(result.valid, describeErrors(result.errors)).toBe(true);
}

export function expectInvalid(pointer: string, data: unknown): void {
  expect(validateAt(API, pointer, data).valid).toBe(false);
}

/** Value of a named example of a response body. */
export function responseExample(
  operationId: string,
  status: string,
  name: string,
  mediaType = "application/json",
): any {
  const op = findOperation(API, operationId);
  const content = resolvePointer(API, `${op.pointer}/responses/${status}`).content[mediaType];
  const example = content.examples[name];
  if (!example) throw new Error(`${operationId} ${status} has no example ${name}`);
  return clone(example.value);
}

/** Value of a named example of a request body. */
export function requestExample(operationId: string, name: string, mediaType: string): any {
  const op = findOperation(API, operationId);
  return clone(op.operation.requestBody.content[mediaType].examples[name].value);
}

/** JSON pointer of the schema of a named parameter of an operation (following component refs). */
export function parameterSchemaPointer(operationId: string, name: string): string {
  const op = findOperation(API, operationId);
  const params = op.operation.parameters as any[];
  const index = params.findIndex((_p, i) => resolvePointer(API, `${op.pointer}/parameters/${i}`).name === name);
  if (index < 0) throw new Error(`${operationId} has no parameter ${name}`);
  return `${op.pointer}/parameters/${index}/schema`;
}

export function parameter(operationId: string, name: string): any {
  return resolvePointer(API, parameterSchemaPointer(operationId, name).replace(/\/schema$/, ""));
}

export function headerSchemaPointer(operationId: string, status: string, header: string): string {
  const op = findOperation(API, operationId);
  return `${op.pointer}/responses/${status}/headers/${header}/schema`;
}

export function decodeJwtPart(part: string): any {
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
}

export const schemas = {
  idToken: "/components/schemas/IdTokenClaims",
  wallet: "/components/schemas/Wallet",
  jwk: "/components/schemas/Jwk",
};
export const userInfo = responseSchemaPointer(API, "getUserInfo", "200");
export const tokenResponse = responseSchemaPointer(API, "exchangeToken", "200");
export const tokenError400 = responseSchemaPointer(API, "exchangeToken", "400");
export const tokenError401 = responseSchemaPointer(API, "exchangeToken", "401");
export const tokenRequest = requestSchemaPointer(API, "exchangeToken", FORM);
export const discovery = responseSchemaPointer(API, "getOpenIdConfiguration", "200");
export const jwks = responseSchemaPointer(API, "getJwks", "200");

export const idTokenClaimsExample = (): any => clone(resolvePointer(API, schemas.idToken).examples[0]);
export const userInfoExample = (): any => responseExample("getUserInfo", "200", "allClaims");
export const tokensExample = (): any => responseExample("exchangeToken", "200", "authorizationCodeTokens");
export const codeGrantExample = (): any => requestExample("exchangeToken", "authorizationCodeGrant", FORM);
export const refreshGrantExample = (): any => requestExample("exchangeToken", "refreshTokenGrant", FORM);
export const discoveryExample = (): any => responseExample("getOpenIdConfiguration", "200", "mockConfiguration");
export const jwksExample = (): any => responseExample("getJwks", "200", "rs256Key");
export const tokenErrorExample = (): any => responseExample("exchangeToken", "400", "invalidGrant");

/** The path template of an operation, as the bundle has it (paths are spelled only in specs/). */
export const pathOf = (operationId: string): string => findOperation(API, operationId).path;
