// The one typed runtime for reading a bundled contract: `loadContract(api)` and the pieces it is built from.
import { type ApiName } from "./bundle.js";
import { Contract } from "./contract.js";

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

/** The contract of one API, built once per process and shared (treat it as read-only). */
export function loadContract<A extends ApiName>(api: A): Contract<A> {
  let contract = contracts.get(api);
  if (!contract) {
    contract = new Contract(api);
    contracts.set(api, contract);
  }
  return contract as Contract<A>;
}
