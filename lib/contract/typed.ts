// The generated operation types (openapi-typescript, generated/types/<api>.ts) by API, so operationIds are
// checked at compile time and a handler's request and response types come from the contract.
import type { operations as CatalogOperations } from "../../generated/types/catalog.js";
import type { operations as IdentityOperations } from "../../generated/types/identity.js";
import type { operations as LinksOperations } from "../../generated/types/links.js";
import type { operations as PayOperations } from "../../generated/types/pay.js";
import type { ApiName } from "./bundle.js";

export interface ApiOperations {
  identity: IdentityOperations;
  links: LinksOperations;
  catalog: CatalogOperations;
  pay: PayOperations;
}

/** The operationIds of one API, e.g. `OperationId<"links">` = `"getAccount" | "listDomains" | …`. */
export type OperationId<A extends ApiName> = keyof ApiOperations[A] & string;

/** The generated type of one operation: `{ parameters, requestBody, responses }`. */
export type OperationTypes<A extends ApiName, Id extends OperationId<A>> = ApiOperations[A][Id];
