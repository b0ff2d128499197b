// Where the identity provider's endpoints live, read from the contract by operationId: the one place of the
// conformance code that asks the bundle for a path (through lib/contract).
// Nothing else spells an endpoint path: a live provider is followed through its discovery document.
import type { operations } from "../../generated/types/identity.js";
import { loadContract } from "../../lib/contract/index.js";
import { operationOf } from "../contract/lookup.js";

export type IdentityOperationId = keyof operations;

/** The path template of one identity operation, e.g. the token endpoint's for `exchangeToken`. */
export function identityOperationPath(operationId: IdentityOperationId): string {
  return operationOf("identity", operationId).path;
}

/** The HTTP method (upper case) of one identity operation. */
export function identityOperationMethod(operationId: IdentityOperationId): string {
  return operationOf("identity", operationId).method.toUpperCase();
}

/** The schemas of the identity bundle's components, as plain JSON values. */
export function identitySchema(name: string): unknown {
  return loadContract("identity").document.components?.schemas?.[name];
}
