// Prism's mocker (the `mock` component of prism-http's createInstance), with what the contract knows added:
// a refused request gets the API's error body with the reason in it, and the example server's URLs in an answer
// become the mock's own.
import { type ApiName, loadContract, mediaTypeOf, type OperationInfo } from "../lib/contract/index.js";
import type { MockedResponse, Mocker, MockerOptions, PrismRequest } from "./prism-types.js";
import { describeViolations, errorBody, fittingCodes } from "./refusals.js";
import { type DescribeAjvErrors, readableViolations } from "./violations.js";

const ERROR_SEVERITY = 0; // DiagnosticSeverity.Error of @stoplight/types

export function contractMocker(api: ApiName, mock: Mocker, describe: DescribeAjvErrors): Mocker {
  const contract = loadContract(api);
  return (options) => (logger) => {
    const operation = options.resource.iid === undefined ? undefined : contract.findOperation(options.resource.iid);
    const result = mock(options)(logger);
    if (!operation || result._tag === "Left") return result;
    explainRefusal(api, operation, options, result.right, describe);
    useOwnOrigin(api, options.input.data, result.right);
    return result;
  };
}

/**
 * A refused request gets the documented error body with the reason as its message (Prism alone answers with the
 * error example as written, e.g. "A valid API key is required" for a bad body), the example whose error code fits
 * the refusal first. An example asked for by name and status (`Prefer: code=422, example=...`) is served as written.
 */
function explainRefusal(api: ApiName, operation: OperationInfo, options: MockerOptions, response: MockedResponse, describe: DescribeAjvErrors): void {
  const violations = options.input.validations.filter((v) => v.severity === ERROR_SEVERITY);
  if (violations.length === 0) return;
  const askedFor = options.config.exampleKey !== undefined && options.config.code === response.statusCode;
  if (askedFor) return;
  const readable = readableViolations(api, operation, options.input.data, violations, describe);
  const contentType = response.headers?.["Content-type"];
  const mediaType = mediaTypeOf(typeof contentType === "string" ? contentType : undefined);
  const explained = errorBody(api, [operation], response.statusCode, describeViolations(readable), { mediaType, codes: fittingCodes(readable) });
  if (explained) response.body = explained.body;
}

/**
 * The examples name the mock by the address of the contract's first server (`http://127.0.0.1:4010`, see
 * specs/README.md); a mock on another port or host is another issuer, and OpenID Connect clients refuse a discovery
 * document naming another one. Every string of the answer that is a URL on that origin is moved to the origin the
 * request reached (its Host), whatever field or header holds it.
 */
function useOwnOrigin(api: ApiName, request: PrismRequest, response: MockedResponse): void {
  const exampleOrigin = exampleServerOrigin(api);
  const host = request.headers.host;
  if (!exampleOrigin || !host) return;
  const ownOrigin = `http://${host}`;
  if (ownOrigin === exampleOrigin) return;
  const onExampleOrigin = new RegExp(`^${exampleOrigin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=$|[/?#])`);
  const move = (value: unknown): unknown => {
    if (typeof value === "string") return value.replace(onExampleOrigin, ownOrigin);
    if (Array.isArray(value)) return value.map(move);
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, move(inner)]));
    return value;
  };
  response.body = move(response.body);
  if (response.headers) response.headers = move(response.headers) as Record<string, unknown>;
}

function exampleServerOrigin(api: ApiName): string | undefined {
  const url = loadContract(api).document.servers?.[0]?.url;
  try {
    return url === undefined ? undefined : new URL(url).origin;
  } catch {
    return undefined; // a templated URL such as `{id_url}` is no example origin
  }
}
