// Builds a valid HTTP request for an operation from the contract's own examples (parameters, request bodies) and
// the credentials of its security schemes. Used to drive mocks and live targets with requests the contract blesses.
import { type ApiName, loadBundle, type Operation, pointerSegment, resolvePointer } from "./openapi.js";

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

function firstExampleValue(api: ApiName, pointer: string, node: Record<string, any>): unknown {
  if (node.examples && typeof node.examples === "object" && !Array.isArray(node.examples)) {
    const [name] = Object.keys(node.examples);
    if (name !== undefined) return resolvePointer(api, `${pointer}/examples/${pointerSegment(name)}`).value;
  }
  if ("example" in node) return node.example;
  const schema = node.schema ? resolvePointer(api, `${pointer}/schema`) : undefined;
  if (schema?.examples?.length) return schema.examples[0];
  if (schema && "default" in schema) return schema.default;
  if (schema?.enum?.length) return schema.enum[0];
  if (schema && "const" in schema) return schema.const;
  return undefined;
}

/** Applies the credentials of the operation's first security requirement to `headers`. */
export function applySecurity(api: ApiName, op: Operation, headers: Record<string, string>, credentials: SchemeCredentials): void {
  const requirement = (op.operation.security ?? loadBundle(api).security ?? [])[0] as Record<string, string[]> | undefined;
  for (const schemeName of Object.keys(requirement ?? {})) {
    const scheme = resolvePointer(api, `/components/securitySchemes/${pointerSegment(schemeName)}`);
    const secret = credentials[schemeName];
    if (secret === undefined) continue;
    if (scheme.type === "apiKey" && scheme.in === "header") headers[scheme.name] = secret;
    else if (scheme.type === "http" || scheme.type === "oauth2" || scheme.type === "openIdConnect") headers.Authorization = `Bearer ${secret}`;
  }
}

export function exampleRequest(op: Operation, baseUrl: string, credentials: SchemeCredentials = {}): ExampleRequest {
  const api = op.api;
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  (op.operation.parameters ?? []).forEach((_: unknown, index: number) => {
    const pointer = `${op.pointer}/parameters/${index}`;
    const parameter = resolvePointer(api, pointer);
    const value = firstExampleValue(api, pointer, parameter);
    if (value === undefined) {
      if (parameter.required) throw new Error(`${api} ${op.operationId}: required parameter ${parameter.name} has no example`);
      return;
    }
    if (!parameter.required && parameter.in !== "path") return;
    const text = String(value);
    if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
    else if (parameter.in === "query") query.set(parameter.name, text);
    else if (parameter.in === "header") headers[parameter.name] = text;
  });
  applySecurity(api, op, headers, credentials);

  const request: ExampleRequest = { method: op.method.toUpperCase(), url: `${baseUrl}${path}${query.size ? `?${query}` : ""}`, headers };
  if (op.operation.requestBody) {
    const bodyPointer = `${op.pointer}/requestBody`;
    const requestBody = resolvePointer(api, bodyPointer);
    const [mediaType] = Object.keys(requestBody.content ?? {});
    if (mediaType) {
      const contentPointer = `${bodyPointer}/content/${pointerSegment(mediaType)}`;
      const content = resolvePointer(api, contentPointer);
      const [name] = Object.keys(content.examples ?? {});
      const value = firstExampleValue(api, contentPointer, content);
      headers["Content-Type"] = mediaType;
      request.body = serializeBody(mediaType, value);
      request.bodyExample = { mediaType, name: name ?? "(schema)", value };
    }
  }
  return request;
}

export function serializeBody(mediaType: string, value: unknown): string {
  if (mediaType === "application/x-www-form-urlencoded") {
    return new URLSearchParams(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)])).toString();
  }
  return JSON.stringify(value);
}
