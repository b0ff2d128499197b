// A typed OpenAPI 3.1 model: the parts of a document this repository reads, named as the specification names them.
// Extensions (`x-…`) are typed `unknown` so readers narrow them; schemas are JSON Schema 2020-12 objects, typed
// loosely (known keywords plus `unknown` for the rest) because Ajv, not TypeScript, is their validator.

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `x-…` extensions of any object of the document. */
export type Extensions = { [extension: `x-${string}`]: unknown };

export interface Reference {
  $ref: string;
  summary?: string;
  description?: string;
}

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  description?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  [keyword: string]: unknown;
}

export interface Example extends Extensions {
  summary?: string;
  description?: string;
  value?: unknown;
  externalValue?: string;
}

export interface MediaType extends Extensions {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, Example | Reference>;
}

export type ParameterLocation = "query" | "header" | "path" | "cookie";

export interface Parameter extends Extensions {
  name: string;
  in: ParameterLocation;
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  style?: string;
  explode?: boolean;
  schema?: JsonSchema;
  content?: Record<string, MediaType>;
  example?: unknown;
  examples?: Record<string, Example | Reference>;
}

export interface Header extends Extensions {
  description?: string;
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, Example | Reference>;
}

export interface RequestBody extends Extensions {
  description?: string;
  required?: boolean;
  content: Record<string, MediaType>;
}

export interface Response extends Extensions {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
  links?: Record<string, unknown>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface SecurityScheme extends Extensions {
  type: "apiKey" | "http" | "mutualTLS" | "oauth2" | "openIdConnect";
  description?: string;
  name?: string;
  in?: "query" | "header" | "cookie";
  scheme?: string;
  bearerFormat?: string;
  flows?: Record<string, unknown>;
  openIdConnectUrl?: string;
}

export interface Operation extends Extensions {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: Array<Parameter | Reference>;
  requestBody?: RequestBody | Reference;
  responses?: Record<string, Response | Reference>;
  security?: SecurityRequirement[];
  callbacks?: Record<string, unknown>;
  servers?: Server[];
}

export type PathItem = { [method in HttpMethod]?: Operation } & Extensions & {
    $ref?: string;
    summary?: string;
    description?: string;
    parameters?: Array<Parameter | Reference>;
    servers?: Server[];
  };

export interface Server extends Extensions {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

export interface Tag extends Extensions {
  name: string;
  description?: string;
}

export interface Info extends Extensions {
  title: string;
  version: string;
  summary?: string;
  description?: string;
  termsOfService?: string;
  contact?: { name?: string; url?: string; email?: string };
  license?: { name: string; identifier?: string; url?: string };
}

export interface Components extends Extensions {
  schemas?: Record<string, JsonSchema>;
  responses?: Record<string, Response | Reference>;
  parameters?: Record<string, Parameter | Reference>;
  examples?: Record<string, Example | Reference>;
  requestBodies?: Record<string, RequestBody | Reference>;
  headers?: Record<string, Header | Reference>;
  securitySchemes?: Record<string, SecurityScheme | Reference>;
  links?: Record<string, unknown>;
  callbacks?: Record<string, unknown>;
  pathItems?: Record<string, PathItem>;
}

export interface Document extends Extensions {
  openapi: string;
  info: Info;
  jsonSchemaDialect?: string;
  servers?: Server[];
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: Components;
  security?: SecurityRequirement[];
  tags?: Tag[];
}

export function isReference(node: unknown): node is Reference {
  return typeof node === "object" && node !== null && typeof (node as { $ref?: unknown }).$ref === "string";
}

/** A JSON object (not an array, not null): a body or example whose fields can be read by name. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
