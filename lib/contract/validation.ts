// Ajv (JSON Schema 2020-12) validators compiled from a bundle. One Ajv instance per API knows the whole bundle
// under `api://<api>`; each schema is compiled once, at its canonical pointer (Ajv follows `$ref`s inside schemas
// only), and cached, so every user validates against exactly the same compiled schemas.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ApiName } from "./bundle.js";
import type { Document } from "./model.js";
import { canonicalPointer } from "./refs.js";

export type { ErrorObject, ValidateFunction };

export interface ValidationResult {
  valid: boolean;
  errors: ErrorObject[];
}

// OpenAPI's own format names, which JSON Schema validators do not know.
const OPENAPI_FORMATS: Record<string, (value: unknown) => boolean> = {
  int32: (n) => Number.isInteger(n) && (n as number) >= -(2 ** 31) && (n as number) < 2 ** 31,
  int64: (n) => Number.isInteger(n),
  float: (n) => typeof n === "number",
  double: (n) => typeof n === "number",
  password: () => true,
  byte: (s) => typeof s === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(s),
  binary: () => true,
};

// ajv-formats is CommonJS; its default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

function createAjv(api: ApiName, doc: Document): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const [name, validate] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, { validate });
  ajv.addSchema(doc, `api://${api}`);
  return ajv;
}

/** The validators of one API's bundle, compiled lazily and once. */
export class Validators {
  private ajvInstance: Ajv2020 | undefined;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(
    readonly api: ApiName,
    private readonly doc: Document,
  ) {}

  /** The Ajv instance that knows the bundle as `api://<api>` (for compiling schemas of your own that `$ref` it). */
  get ajv(): Ajv2020 {
    this.ajvInstance ??= createAjv(this.api, this.doc);
    return this.ajvInstance;
  }

  /** The validator of the schema at `pointer` (e.g. `/components/schemas/Order`). */
  at(pointer: string): ValidateFunction {
    const key = `api://${this.api}#${canonicalPointer(this.doc, pointer, this.api)}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: key });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /**
   * Drops every compiled validator, so that the next use compiles the document as it is now (after a change in place).
   */
  forget(): void {
    this.ajvInstance = undefined;
    this.compiled.clear();
  }

  /** Validates `data` against the schema at `pointer`; never throws on invalid data. */
  validate(pointer: string, data: unknown): ValidationResult {
    const validate = this.at(pointer);
    const valid = validate(data);
    return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
  }
}

/** Ajv errors as one line; `subject` (e.g. "body") prefixes each path, and an unexpected property is named. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, subject = ""): string {
  return (errors ?? [])
    .map((error) => {
      const property = (error.params as { additionalProperty?: string }).additionalProperty;
      const message =
        property === undefined
          ? (error.message ?? "is invalid")
          : `must NOT have the additional property "${property}"`;
      const path = `${subject}${error.instancePath}` || "(root)";
      return `${path} ${message}`;
    })
    .join("; ");
}
