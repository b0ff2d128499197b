// Prism's mocker (the `mock` component of prism-http's createInstance), with what the contract knows added:
// a refused request gets the API's error body with the reason in it.
import { type ApiName, loadContract, mediaTypeOf, type OperationInfo } from "../lib/contract/index.js";
import type { MockedResponse, Mocker, MockerOptions } from "./prism-types.js";
import { describeViolations, errorBody } from "./refusals.js";

const ERROR_SEVERITY = 0; // DiagnosticSeverity.Error of @stoplight/types

export function contractMocker(api: ApiName, mock: Mocker): Mocker {
  const contract = loadContract(api);
  return (options) => (logger) => {
    const operation = options.resource.iid === undefined ? undefined : contract.findOperation(options.resource.iid);
    const result = mock(options)(logger);
    if (!operation || result._tag === "Left") return result;
    explainRefusal(api, operation, options, result.right);
    return result;
  };
}

/**
 * A refused request gets the documented error body with the reason as its message (Prism alone answers with the
 * error example as written, e.g. "A valid API key is required" for a bad body). An example asked for by name and
 * status (`Prefer: code=422, example=...`) is served as written.
 */
function explainRefusal(api: ApiName, operation: OperationInfo, options: MockerOptions, response: MockedResponse): void {
  const violations = options.input.validations.filter((v) => v.severity === ERROR_SEVERITY);
  if (violations.length === 0) return;
  const askedFor = options.config.exampleKey !== undefined && options.config.code === response.statusCode;
  if (askedFor) return;
  const contentType = response.headers?.["Content-type"];
  const mediaType = mediaTypeOf(typeof contentType === "string" ? contentType : undefined);
  const explained = errorBody(api, [operation], response.statusCode, describeViolations(violations), { mediaType });
  if (explained) response.body = explained.body;
}
