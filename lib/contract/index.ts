// The one typed runtime for reading a bundled contract: `loadContract(api)` and the pieces it is built from.
import { type ApiName } from "./bundle.js";
import { Contract } from "./contract.js";
import type { Document } from "./model.js";

export { API_NAMES, type ApiName, isApiName, loadBundle } from "./bundle.js";
export { Contract } from "./contract.js";
export { examplesOf, type NamedExample, schemaFallback } from "./examples.js";
export * from "./model.js";
export {
  listOperationsOf,
  locateOperations,
  type OperationInfo,
  type OperationLocation,
  type ResolvedParameter,
} from "./operations.js";
export {
  coerceForm,
  coerceParameter,
  coerceScalar,
  type ParameterSource,
  rawParameter,
  type SchemaResolver,
} from "./parameters.js";
export {
  canonicalPointer,
  deref,
  escapeSegment,
  joinPointer,
  parsePointer,
  pointerOf,
  refPointer,
  resolveAt,
  unescapeSegment,
  valueAt,
} from "./refs.js";
export {
  type CheckContext,
  checkRequest,
  invalidRequestStatus,
  checkResponse,
  documentedMediaType,
  documentedResponse,
  type DocumentedResponse,
  type HttpRequest,
  type HttpResponse,
  mediaTypeOf,
  parseForm,
  readParameters,
  type RequestCheck,
  responseHeaderProblems,
  responseKeyFor,
  responseSchemaPointer,
  successKeyOf,
  validateResponseBody,
} from "./requests.js";
export { type RouteMatch, Router } from "./router.js";
export type { ApiOperations, OperationId, OperationTypes } from "./typed.js";
export {
  describeErrors,
  type ErrorObject,
  type ValidateFunction,
  type ValidationResult,
  Validators,
} from "./validation.js";

const contracts = new Map<ApiName, Contract>();
/** Documents that stand in for a canonical bundle in this process (an overlay applied: lib/contract/overlay.ts). */
const replaced = new Map<ApiName, Document>();

/** The contract of one API, built once per process and shared (treat it as read-only). */
export function loadContract<A extends ApiName>(api: A): Contract<A> {
  let contract = contracts.get(api);
  if (!contract) {
    contract = new Contract(api, replaced.get(api));
    contracts.set(api, contract);
  }
  return contract as Contract<A>;
}

/**
 * Makes `loadContract(api)` read `document` (an overlaid copy of the bundle) from now on in this process, or the
 * canonical bundle again when `document` is undefined. Callers that memoize reads of a contract forget them too.
 */
export function useContractDocument(api: ApiName, document: Document | undefined): void {
  if (document) replaced.set(api, document);
  else replaced.delete(api);
  contracts.delete(api);
}

/** The canonical contract of an API, whatever document loadContract reads now (an overlay's baseline). */
export function canonicalContract<A extends ApiName>(api: A): Contract<A> {
  return replaced.has(api) ? new Contract(api) : loadContract(api);
}
