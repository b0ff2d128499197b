// Prism's mocker (the `mock` component of prism-http's createInstance), with what the contract knows added:
// a refused request gets the API's error body with the reason in it, an example asked for by a name the response
// does not have is answered with the names it has, header examples can be asked for by name, and the example
// server's URLs in an answer become the mock's own.
import {
  type ApiName,
  examplesOf,
  type Header,
  loadContract,
  mediaTypeOf,
  type OperationInfo,
  responseKeyFor,
  successKeyOf,
} from "../lib/contract/index.js";
import { escapeRegExp } from "../lib/regexp.js";
import type { Either, MockedResponse, Mocker, MockerOptions, PrismPackages, PrismRequest } from "./prism-types.js";
import { describeViolations, errorBody, fittingCodes, missingCredential, PRISM_SECURITY_MESSAGE } from "./refusals.js";
import { type DescribeAjvErrors, readableViolations } from "./violations.js";

const ERROR_SEVERITY = 0; // DiagnosticSeverity.Error of @stoplight/types

export function contractMocker(
  api: ApiName,
  prism: Pick<PrismPackages, "mock" | "ProblemJsonError" | "NOT_FOUND">,
  describe: DescribeAjvErrors,
): Mocker {
  const contract = loadContract(api);
  return (options) => (logger) => {
    const operation = options.resource.iid === undefined ? undefined : contract.findOperation(options.resource.iid);
    const result = prism.mock(options)(logger);
    if (!operation) return result;
    const unknown = unknownExample(api, operation, options, result);
    if (unknown) return { _tag: "Left", left: prism.ProblemJsonError.fromTemplate(prism.NOT_FOUND, unknown) };
    if (result._tag === "Left") return result;
    const response = result.right;
    const key = responseKeyFor(operation, response.statusCode);
    if (key !== undefined && options.config.exampleKey !== undefined)
      useHeaderExamples(api, operation, key, options.config.exampleKey, response);
    explainRefusal(api, operation, options, response, describe);
    useOwnOrigin(api, options.input.data, response);
    return result;
  };
}

/**
 * A refused request gets the documented error body with the reason as its message (Prism alone answers with the
 * error example as written, e.g. "A valid API key is required" for a bad body), the example whose error code fits
 * the refusal first. An example asked for by name and status (`Prefer: code=422, example=...`) is served as written.
 */
function explainRefusal(
  api: ApiName,
  operation: OperationInfo,
  options: MockerOptions,
  response: MockedResponse,
  describe: DescribeAjvErrors,
): void {
  const violations = options.input.validations.filter((v) => v.severity === ERROR_SEVERITY);
  if (violations.length === 0) return;
  const askedFor = options.config.exampleKey !== undefined && options.config.code === response.statusCode;
  if (askedFor) return;
  const readable = readableViolations(api, operation, options.input.data, violations, describe).map((v) =>
    v.message === PRISM_SECURITY_MESSAGE ? { ...v, message: missingCredential(api, operation) } : v,
  );
  const contentType = response.headers?.["Content-type"];
  const mediaType = mediaTypeOf(typeof contentType === "string" ? contentType : undefined);
  const message = describeViolations(readable);
  const explained = errorBody(api, [operation], response.statusCode, message, {
    mediaType,
    codes: fittingCodes(readable),
  });
  if (explained) response.body = explained.body;
  else if (mediaType === "text/html" && typeof response.body === "string")
    // An error page (identity's authorize) names what is wrong with this request, not the reason of its example
    // (whose "redirect_uri is not registered" would send a reader after the wrong parameter).
    response.body = response.body.replace(/<p>[\s\S]*?<\/p>/, () => `<p>${escapeHtml(message)}</p>`);
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** The example names of one documented response: its bodies' and its headers'. */
function exampleNames(api: ApiName, operation: OperationInfo, key: string): string[] {
  const contract = loadContract(api);
  const response = contract.response(operation, key);
  const bodies = Object.values(response?.content ?? {}).flatMap((media) =>
    examplesOf(media, contract.deref).map((example) => example.name),
  );
  const headers = Object.values(response?.headers ?? {}).flatMap((header) =>
    Object.keys(contract.deref<Header>(header).examples ?? {}),
  );
  return [...new Set([...bodies, ...headers])];
}

/**
 * The response key Prism serves for a request without a status preference: the lowest 2xx code (or 2XX), else default,
 * else the first.
 */
function unspecifiedKey(operation: OperationInfo): string | undefined {
  const keys = Object.keys(operation.operation.responses ?? {});
  return successKeyOf(operation) ?? (keys.includes("default") ? "default" : keys[0]);
}

/**
 * Why `Prefer: example=<name>` cannot be served, when the response it would come from documents no example by that
 * name (Prism answers a misspelt error example name with a 500 after trying the 2XX response with it, and ignores
 * the name where a response has no body); undefined when the name exists or none was asked for.
 */
function unknownExample(
  api: ApiName,
  operation: OperationInfo,
  options: MockerOptions,
  result: Either<Error, MockedResponse>,
): string | undefined {
  const { exampleKey, code } = options.config;
  if (exampleKey === undefined) return undefined;
  const refused = options.input.validations.some((v) => v.severity === ERROR_SEVERITY);
  // A refused request gets its error example by name only with the status asked for (see explainRefusal).
  if (refused && (result._tag === "Right" ? code !== result.right.statusCode : code === undefined)) return undefined;
  const key = code === undefined ? unspecifiedKey(operation) : responseKeyFor(operation, code);
  if (key === undefined) return undefined; // Prism's own answer says the status is not documented
  const names = exampleNames(api, operation, key);
  if (names.includes(exampleKey)) return undefined;
  const request = `${operation.method.toUpperCase()} ${operation.path}`;
  const has = names.length > 0 ? `its examples: ${names.join(", ")}` : "it has no named examples";
  const elsewhere = Object.keys(operation.operation.responses ?? {}).filter(
    (other) => other !== key && exampleNames(api, operation, other).includes(exampleKey),
  );
  const hint =
    elsewhere.length > 0
      ? `; ${exampleKey} is an example of the ${elsewhere.join(", ")} response: ask for it with code=<status>, example=${exampleKey}`
      : "";
  return `no example ${exampleKey} in the ${key} response of ${operation.operationId} (${request}); ${has}${hint}`;
}

/**
 * Prism serves the first example of every header; a response whose header documents an example by the name asked
 * for (`Prefer: code=401, example=invalidToken` on identity's userinfo) gets that one.
 */
function useHeaderExamples(
  api: ApiName,
  operation: OperationInfo,
  key: string,
  name: string,
  response: MockedResponse,
): void {
  const contract = loadContract(api);
  for (const [header, node] of Object.entries(contract.response(operation, key)?.headers ?? {})) {
    const example = contract.deref<Header>(node).examples?.[name];
    if (example === undefined) continue;
    const value = contract.deref(example).value;
    const served =
      Object.keys(response.headers ?? {}).find((served) => served.toLowerCase() === header.toLowerCase()) ?? header;
    response.headers = { ...response.headers, [served]: value };
  }
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
  const onExampleOrigin = new RegExp(`^${escapeRegExp(exampleOrigin)}(?=$|[/?#])`);
  const move = (value: unknown): unknown => {
    if (typeof value === "string") return value.replace(onExampleOrigin, ownOrigin);
    if (Array.isArray(value)) return value.map(move);
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, move(inner)]));
    return value;
  };
  response.body = move(response.body);
  if (response.headers) response.headers = move(response.headers) as Record<string, unknown>;
}

/** The origin the examples are written on: the first server with a concrete URL (the mock; `{id_url}` is none). */
function exampleServerOrigin(api: ApiName): string | undefined {
  for (const server of loadContract(api).document.servers ?? []) {
    try {
      return new URL(server.url).origin;
    } catch {
      // a templated URL such as `{id_url}` is no example origin
    }
  }
  return undefined;
}
