// Prism's violations of a request body whose schema is a `oneOf` (identity's token request: one shape per
// grant_type), made readable. Prism validates the body against every branch and reports all their errors plus
// "must match exactly one schema in oneOf" (a field missing from both branches twice); the caller meant one branch,
// the one its discriminating `const` (e.g. `grant_type`) names, so only that branch's errors explain the refusal.
import {
  coerceForm,
  type ErrorObject,
  isJsonObject,
  joinPointer,
  type JsonSchema,
  loadContract,
  mediaTypeOf,
  type OperationInfo,
  parseForm,
} from "../lib/contract/index.js";
import type { ApiName } from "../lib/contract/index.js";
import type { PrismRequest, PrismViolation } from "./prism-types.js";

/** Prism's own wording of Ajv errors (prism-http's convertAjvErrors), so that the messages read like its others. */
export type DescribeAjvErrors = (errors: ErrorObject[]) => PrismViolation[];

/** The properties that every branch pins to a `const` (the discriminators), with each branch's value. */
function discriminators(branches: JsonSchema[], deref: <T>(node: T) => T): Map<string, unknown[]> {
  const found = new Map<string, unknown[]>();
  const first = branches[0]?.properties ?? {};
  for (const name of Object.keys(first)) {
    const values = branches.map((branch) => {
      const property = branch.properties?.[name];
      return property ? deref<JsonSchema>(property) : undefined;
    });
    if (values.every((property) => property !== undefined && "const" in property))
      found.set(
        name,
        values.map((property) => property!.const),
      );
  }
  return found;
}

/** The body as the branch reads it: a form's fields coerced to the branch's types, a JSON body as parsed. */
function bodyFor(body: unknown, mediaType: string, branch: JsonSchema, deref: <T>(node: T) => T): unknown {
  if (typeof body === "string" && mediaType === "application/x-www-form-urlencoded")
    return coerceForm(branch, parseForm(body), deref);
  return body;
}

const syntheticError = (
  keyword: string,
  instancePath: string,
  params: Record<string, unknown>,
  message: string,
): ErrorObject => ({ keyword, instancePath, schemaPath: "", params, message });

/**
 * The violations with those of a root `oneOf` body replaced by the errors of the branch the body's discriminators
 * select; when they select none, by what is wrong with the discriminator itself (missing, or not one of the
 * branches' values). Anything else (no root `oneOf`, no discriminator, a body that is not an object) is returned
 * unchanged.
 */
export function readableViolations(
  api: ApiName,
  operation: OperationInfo,
  request: PrismRequest,
  violations: readonly PrismViolation[],
  describe: DescribeAjvErrors,
): readonly PrismViolation[] {
  if (!violations.some((v) => v.code === "oneOf")) return violations;
  const contract = loadContract(api);
  const mediaType = mediaTypeOf(request.headers["content-type"]);
  const media = operation.requestBody?.content[mediaType];
  const schema = media?.schema ? contract.deref<JsonSchema>(media.schema) : undefined;
  const branches = (schema?.oneOf ?? []).map((branch) => contract.deref<JsonSchema>(branch));
  const keys = discriminators(branches, contract.deref);
  if (branches.length === 0 || keys.size === 0) return violations;

  const pointer = joinPointer(operation.pointer, "requestBody", "content", mediaType, "schema");
  const chosen = branches.findIndex((branch) => {
    const body = bodyFor(request.body, mediaType, branch, contract.deref);
    return isJsonObject(body) && [...keys].every(([name, values]) => body[name] === values[branches.indexOf(branch)]);
  });
  let errors: ErrorObject[];
  if (chosen >= 0) {
    errors = contract.validate(
      joinPointer(pointer, "oneOf", chosen),
      bodyFor(request.body, mediaType, branches[chosen]!, contract.deref),
    ).errors;
  } else {
    const body = bodyFor(request.body, mediaType, {}, contract.deref);
    if (!isJsonObject(body)) return violations;
    errors = [...keys].map(([name, values]) =>
      name in body
        ? syntheticError("enum", `/${name}`, { allowedValues: values }, "must be equal to one of the allowed values")
        : syntheticError("required", "", { missingProperty: name }, `must have required property '${name}'`),
    );
  }
  const others = violations.filter((v) => v.path?.[0] !== "body");
  return [...others, ...describe(errors)];
}
