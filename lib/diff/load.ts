// Reads one version of a contract for `contracts diff`: a JSON or YAML OpenAPI 3 document whose `$ref`s are local.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { UsageError } from "../cli.js";
import type { OpenApiDocument } from "../openapi.js";

export function loadSpecFile(file: string): OpenApiDocument {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${(error as Error).message.split("\n")[0]}`);
  }
  const candidate = doc as Partial<OpenApiDocument> | null;
  if (!candidate || typeof candidate !== "object" || typeof candidate.openapi !== "string" || !candidate.openapi.startsWith("3.")) {
    throw new UsageError(`${file} is not an OpenAPI 3 document (it has no "openapi: 3.x" field)`);
  }
  if (typeof candidate.info?.title !== "string" || typeof candidate.info.version !== "string") {
    throw new UsageError(`${file} has no info.title and info.version`);
  }
  const external = externalRef(candidate);
  if (external) throw new UsageError(`${file} refers to another file ($ref "${external}"); bundle it first: npx @redocly/cli bundle ${file} -o bundled.json`);
  return candidate as OpenApiDocument;
}

function externalRef(node: unknown): string | undefined {
  if (!node || typeof node !== "object") return undefined;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && !ref.startsWith("#")) return ref;
  for (const value of Object.values(node)) {
    const found = externalRef(value);
    if (found) return found;
  }
  return undefined;
}
