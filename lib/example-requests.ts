// Builds a valid HTTP request for an operation from the contract's own examples (parameters, request bodies) and
// the credentials of its security schemes. Used to drive mocks and live targets with requests the contract blesses.
import {
  type ApiName,
  type Contract,
  examplesOf,
  type JsonSchema,
  loadContract,
  type OperationInfo,
  type Parameter,
  schemaFallback,
  type SecurityScheme,
} from "./contract/index.js";

export interface ExampleRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The media type and name of the request body example used, if any. */
  bodyExample?: { mediaType: string; name: string; value: unknown };
}

/** Credentials by security scheme name, e.g. `{ bearerApiKey: "demo-key" }`; values are the raw secret. */
export type SchemeCredentials = Record<string, string>;

/** Which operation: `{ api, operationId }` (an operation of lib/contract fits). */
export interface OperationRef {
  api: ApiName;
  operationId: string;
}

function operationOf(ref: OperationRef): { contract: Contract; op: OperationInfo } {
  const contract = loadContract(ref.api);
  const op = contract.findOperation(ref.operationId);
  if (!op) throw new Error(`${ref.api} has no operation ${ref.operationId}`);
  return { contract, op };
}

function parameterExample(contract: Contract, parameter: Parameter): unknown {
  const [first] = examplesOf(parameter, contract.deref);
  if (first) return first.value;
  return schemaFallback(parameter.schema ? contract.deref<JsonSchema>(parameter.schema) : undefined);
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Applies the credentials of the operation's first security requirement to `headers`. */
export function applySecurity(
  api: ApiName,
  ref: OperationRef,
  headers: Record<string, string>,
  credentials: SchemeCredentials,
): void {
  const { contract, op } = operationOf({ api, operationId: ref.operationId });
  const requirement = (op.operation.security ?? contract.document.security ?? [])[0];
  for (const schemeName of Object.keys(requirement ?? {})) {
    const node = contract.document.components?.securitySchemes?.[schemeName];
    const secret = credentials[schemeName];
    if (node === undefined || secret === undefined) continue;
    const scheme = contract.deref<SecurityScheme>(node);
    if (scheme.type === "apiKey" && scheme.in === "header" && scheme.name) headers[scheme.name] = secret;
    else if (scheme.type === "http" || scheme.type === "oauth2" || scheme.type === "openIdConnect")
      headers.Authorization = `Bearer ${secret}`;
  }
}

export function exampleRequest(
  ref: OperationRef,
  baseUrl: string,
  credentials: SchemeCredentials = {},
): ExampleRequest {
  const { contract, op } = operationOf(ref);
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const { parameter } of op.parameters) {
    const value = parameterExample(contract, parameter);
    if (value === undefined) {
      if (parameter.required)
        throw new Error(`${ref.api} ${op.operationId}: required parameter ${parameter.name} has no example`);
      continue;
    }
    if (!parameter.required && parameter.in !== "path") continue;
    const text = asText(value);
    if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
    else if (parameter.in === "query") query.set(parameter.name, text);
    else if (parameter.in === "header") headers[parameter.name] = text;
  }
  applySecurity(ref.api, ref, headers, credentials);

  const request: ExampleRequest = {
    method: op.method.toUpperCase(),
    url: `${baseUrl}${path}${query.size ? `?${query.toString()}` : ""}`,
    headers,
  };
  const [mediaType, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  if (mediaType && content) {
    const [example] = examplesOf(content, contract.deref);
    const value = example
      ? example.value
      : schemaFallback(content.schema ? contract.deref<JsonSchema>(content.schema) : undefined);
    headers["Content-Type"] = mediaType;
    request.body = serializeBody(mediaType, value);
    request.bodyExample = {
      mediaType,
      name: example && !example.name.startsWith("schema[") && example.name !== "example" ? example.name : "(schema)",
      value,
    };
  }
  return request;
}

export function serializeBody(mediaType: string, value: unknown): string {
  if (mediaType === "application/x-www-form-urlencoded") {
    return new URLSearchParams(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, asText(v)]),
    ).toString();
  }
  return JSON.stringify(value);
}
