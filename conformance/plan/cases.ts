// Request cases of one operation, in the order the runner sends them: the contract's named examples, then boundary
// values, then random valid data, then invalid data. A case holds typed values; `prepare` turns it into HTTP.
import fc from "fast-check";
import { serializeBody } from "../../lib/example-requests.js";
import {
  type ApiName,
  coerceForm,
  coerceScalar,
  describeErrors,
  escapeSegment as pointerSegment,
  type JsonSchema,
  loadContract,
} from "../../lib/contract/index.js";
import { type BundleNode, resolveAt, type RunnerOperation, validateAt } from "../contract/lookup.js";
import type { ApiProfile, Credentials, PreparedRequest, RequestParts } from "../apis.js";
import { boundaryValues, validArbitrary } from "./schema-arbitraries.js";
import { type Mutation, mutateBody, operationMutations, REMOVE } from "./mutations.js";
import type { OperationModel, ParameterInfo, RequestCase } from "../model/cases.js";

function parameterExamples(api: ApiName, pointer: string, parameter: BundleNode): unknown[] {
  const values: unknown[] = [];
  for (const name of Object.keys(parameter.examples ?? {}))
    values.push(resolveAt(api, `${pointer}/examples/${pointerSegment(name)}`).value);
  if ("example" in parameter) values.push(parameter.example);
  const schema: BundleNode = parameter.schema ? resolveAt(api, `${pointer}/schema`) : {};
  if (Array.isArray(schema.examples)) values.push(...(schema.examples as unknown[]));
  if (values.length === 0 && "default" in schema) values.push(schema.default);
  return values;
}

export function operationModel(op: RunnerOperation): OperationModel {
  const api = op.api;
  const parameters: ParameterInfo[] = [];
  (op.operation.parameters ?? []).forEach((_, index) => {
    const pointer = `${op.pointer}/parameters/${index}`;
    const parameter = resolveAt(api, pointer);
    if (parameter.in === "cookie") return;
    parameters.push({
      name: String(parameter.name),
      in: parameter.in as ParameterInfo["in"],
      required: Boolean(parameter.required),
      pointer,
      examples: parameterExamples(api, pointer, parameter),
    });
  });
  const model: OperationModel = { op, parameters };
  if (op.operation.requestBody) {
    const requestBody = resolveAt(api, `${op.pointer}/requestBody`);
    const [mediaType] = Object.keys(requestBody.content ?? {});
    if (mediaType) {
      const contentPointer = `${op.pointer}/requestBody/content/${pointerSegment(mediaType)}`;
      const content = resolveAt(api, contentPointer);
      const examples = Object.keys(content.examples ?? {}).map((name) => ({
        name,
        value: resolveAt(api, `${contentPointer}/examples/${pointerSegment(name)}`).value,
      }));
      model.body = {
        mediaType,
        pointer: `${contentPointer}/schema`,
        required: Boolean(requestBody.required),
        examples,
      };
    }
  }
  return model;
}

function targetOf(parts: RequestParts, where: "path" | "query" | "header"): Record<string, unknown> {
  return where === "path" ? parts.path : where === "query" ? parts.query : parts.headers;
}

function bound(
  model: OperationModel,
  profile: ApiProfile,
  credentials: Credentials,
  parts: RequestParts,
): RequestParts {
  const copy = structuredClone(parts);
  profile.bind(model.op.operationId, copy, credentials);
  return copy;
}

/** The contract's examples: one case per body example, cycling through the parameter examples. */
export function exampleCases(model: OperationModel, profile: ApiProfile, credentials: Credentials): RequestCase[] {
  const bodyExamples = model.body?.examples ?? [];
  const count = Math.max(1, bodyExamples.length, ...model.parameters.map((p) => p.examples.length));
  const cases: RequestCase[] = [];
  for (let i = 0; i < count; i++) {
    const parts: RequestParts = { path: {}, query: {}, headers: {} };
    let complete = true;
    for (const parameter of model.parameters) {
      if (parameter.examples.length === 0) {
        if (parameter.required) complete = false;
        continue;
      }
      targetOf(parts, parameter.in)[parameter.name] = parameter.examples[i % parameter.examples.length];
    }
    const bodyExample = bodyExamples.length ? bodyExamples[i % bodyExamples.length] : undefined;
    if (bodyExample) parts.body = structuredClone(bodyExample.value);
    if (!complete || (model.body?.required && !bodyExample)) continue;
    cases.push({
      ...bound(model, profile, credentials, parts),
      origin: "example",
      label: bodyExample ? `example ${bodyExample.name}` : `parameter examples #${i + 1}`,
    });
  }
  return cases;
}

/** Boundary values: each parameter and the body at each of its boundaries, the other values from the first example. */
export function boundaryCases(
  model: OperationModel,
  profile: ApiProfile,
  credentials: Credentials,
  limit: number,
): RequestCase[] {
  const [base] = exampleCases(model, profile, credentials);
  if (!base) return [];
  const api = model.op.api;
  const cases: RequestCase[] = [];
  for (const parameter of model.parameters) {
    for (const value of boundaryValues(api, `${parameter.pointer}/schema`, 4)) {
      const parts = structuredClone(base);
      targetOf(parts, parameter.in)[parameter.name] = value;
      cases.push({
        ...bound(model, profile, credentials, parts),
        origin: "boundary",
        label: `boundary ${parameter.in} ${parameter.name}=${JSON.stringify(value)}`,
      });
    }
  }
  if (model.body) {
    boundaryValues(api, model.body.pointer, 12).forEach((value, index) => {
      cases.push({
        ...bound(model, profile, credentials, { ...structuredClone(base), body: value }),
        origin: "boundary",
        label: `boundary body #${index + 1}`,
      });
    });
  }
  const unique = new Map(cases.map((c) => [JSON.stringify([c.path, c.query, c.headers, c.body]), c]));
  return [...unique.values()].filter((c) => validateCase(model, c).valid).slice(0, limit);
}

/** Random valid cases; fast-check shrinks them towards small values. */
export function validCaseArbitrary(
  model: OperationModel,
  profile: ApiProfile,
  credentials: Credentials,
): fc.Arbitrary<RequestCase> {
  const api = model.op.api;
  const parameterArbitraries = model.parameters.map((parameter) => {
    const value = validArbitrary(api, `${parameter.pointer}/schema`);
    return parameter.required ? value : fc.option(value, { nil: undefined });
  });
  const body = model.body ? validArbitrary(api, model.body.pointer) : fc.constant(undefined);
  return fc.tuple(fc.tuple(...parameterArbitraries), body).map(([values, bodyValue]) => {
    const parts: RequestParts = { path: {}, query: {}, headers: {} };
    model.parameters.forEach((parameter, index) => {
      if (values[index] !== undefined) targetOf(parts, parameter.in)[parameter.name] = values[index];
    });
    if (model.body) parts.body = bodyValue;
    return { ...bound(model, profile, credentials, parts), origin: "random" as const, label: "random valid data" };
  });
}

export function applyMutation(base: RequestCase, mutation: Mutation): RequestCase | undefined {
  const next: RequestCase = {
    ...structuredClone(base),
    origin: "invalid",
    label: mutation.description,
    violation: {
      description: mutation.description,
      location: structuredClone(mutation.location),
      ...(mutation.value === REMOVE ? { removed: true } : {}),
    },
  };
  const location = mutation.location;
  if (location.in === "body") {
    if (mutation.raw) {
      next.rawBody = String(mutation.value);
      return next;
    }
    if (mutation.value === REMOVE && location.path.length === 0) {
      delete next.body;
      next.noBody = true;
      return next;
    }
    const result = mutateBody(base.body, location.path, mutation.value);
    if (!result) return undefined;
    next.body = result.body;
    return next;
  }
  const target = targetOf(next, location.in);
  if (mutation.value === REMOVE) {
    if (!(location.name in target)) return undefined;
    delete target[location.name];
  } else target[location.name] = mutation.value;
  return next;
}

/**
 * Invalid cases: one mutation of one valid case, `undefined` where the mutation does not apply or leaves the case
 * valid (the property skips those with fc.pre). Not a filter: a filter that never passes, as when every mutation is
 * of a kind the requests cannot carry (an empty form field counts as absent), would generate forever.
 */
export function invalidCaseArbitrary(
  model: OperationModel,
  profile: ApiProfile,
  credentials: Credentials,
): fc.Arbitrary<RequestCase | undefined> | undefined {
  const mutations = operationMutations(model.op.api, model.op.pointer);
  if (mutations.length === 0) return undefined;
  return fc
    .tuple(validCaseArbitrary(model, profile, credentials), fc.integer({ min: 0, max: mutations.length - 1 }))
    .map(([base, index]) => {
      const mutated = applyMutation(base, mutations[index]!);
      return mutated !== undefined && !validateCase(model, mutated).valid ? mutated : undefined;
    });
}

/** Validates a case against the contract's parameter and body schemas. */
export function validateCase(model: OperationModel, c: RequestCase): { valid: boolean; reason: string } {
  const api = model.op.api;
  const problems: string[] = [];
  for (const parameter of model.parameters) {
    const target = targetOf(c, parameter.in);
    // RFC 6749 §3.1 and most servers read `?name=` as no value at all, so an empty query value counts as absent.
    const absent = !(parameter.name in target) || (parameter.in === "query" && target[parameter.name] === "");
    if (absent) {
      if (parameter.required) problems.push(`${parameter.in} parameter ${parameter.name} is missing`);
      continue;
    }
    const value = coerceText(api, `${parameter.pointer}/schema`, target[parameter.name]);
    const result = validateAt(api, `${parameter.pointer}/schema`, value);
    if (!result.valid) problems.push(`${parameter.in} parameter ${parameter.name}: ${describeErrors(result.errors)}`);
  }
  if (model.body) {
    if (c.rawBody !== undefined) problems.push("the body is not valid JSON");
    else if (c.noBody || c.body === undefined) {
      if (model.body.required) problems.push("the body is missing");
    } else {
      const value =
        model.body.mediaType === "application/x-www-form-urlencoded"
          ? coerceFormBody(api, model.body.pointer, c.body)
          : c.body;
      const result = validateAt(api, model.body.pointer, value);
      if (!result.valid) problems.push(`body: ${describeErrors(result.errors)}`);
    }
  }
  return { valid: problems.length === 0, reason: problems.join("; ") };
}

/** A parameter value as a server reads it from text: "12" is the integer 12, "abc" stays a string. */
/** A parameter's value as the server reads it: text turned into the schema's type by lib/contract's coercion. */
function coerceText(api: ApiName, pointer: string, value: unknown): unknown {
  return typeof value === "string" ? coerceScalar(value, resolveAt(api, pointer) as JsonSchema) : value;
}

function coerceFormBody(api: ApiName, pointer: string, body: unknown): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  // As for the query (validateCase): a form field sent without a value counts as absent (RFC 6749 §3.1), so that
  // `client_id=` is judged the same by GET and by form POST.
  const fields = Object.fromEntries(
    Object.entries(body as Record<string, unknown>)
      .filter(([, value]) => value !== "")
      .map(([key, value]) => [key, String(value)]),
  );
  const contract = loadContract(api);
  return coerceForm(resolveAt(api, pointer) as JsonSchema, fields, contract.deref);
}

/**
 * The HTTP request of a case, before authentication, at `address`: the URL of the operation's path template (the
 * sender's, see send/sender.ts). A query the address carries is kept, as RFC 6749 §3.1 asks of an endpoint's.
 */
export function prepare(model: OperationModel, c: RequestCase, address: string): PreparedRequest {
  let url = address;
  for (const [name, value] of Object.entries(c.path)) url = url.replace(`{${name}}`, encodeURIComponent(String(value)));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(c.query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value])
      query.append(name, typeof item === "object" ? JSON.stringify(item) : String(item));
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.headers))
    if (value !== undefined) headers[name] = typeof value === "string" ? value : JSON.stringify(value);
  const request: PreparedRequest = {
    method: model.op.method.toUpperCase(),
    url: query.size ? `${url}${url.includes("?") ? "&" : "?"}${query}` : url,
    headers,
  };
  if (model.body && !c.noBody) {
    headers["Content-Type"] = model.body.mediaType;
    if (c.rawBody !== undefined) request.body = c.rawBody;
    else if (c.body !== undefined)
      request.body = model.body.mediaType.includes("json")
        ? JSON.stringify(c.body)
        : serializeBody(model.body.mediaType, c.body);
  }
  return request;
}
