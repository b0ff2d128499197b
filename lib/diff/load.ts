// Reads one version of a contract for `contracts diff`: a JSON or YAML OpenAPI 3 document whose `$ref`s are local.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { UsageError } from "../cli.js";
import type { Document } from "../contract/index.js";
import { field, isObject } from "./json.js";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function loadSpecFile(file: string): Document {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = field(error, "code");
    throw new UsageError(`cannot read ${file}: ${typeof code === "string" ? code : messageOf(error)}`);
  }
  let doc: unknown;
  try {
    doc = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new UsageError(
      `${file} is not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${messageOf(error).split("\n")[0]}`,
    );
  }
  if (!isOpenApi3(doc)) throw new UsageError(`${file} is not an OpenAPI 3 document (it has no "openapi: 3.x" field)`);
  if (typeof field(doc.info, "title") !== "string" || typeof field(doc.info, "version") !== "string") {
    throw new UsageError(`${file} has no info.title and info.version`);
  }
  const external = externalRef(doc);
  if (external)
    throw new UsageError(
      `${file} refers to another file ($ref "${external}"); bundle it first: npx @redocly/cli bundle ${file} -o bundled.json`,
    );
  // Only what every report needs is checked here; the differ narrows the other fields where it reads them (./json.ts).
  return doc as Document;
}

function isOpenApi3(doc: unknown): doc is { openapi: string; info: unknown } {
  const version = field(doc, "openapi");
  return isObject(doc) && typeof version === "string" && version.startsWith("3.");
}

function externalRef(node: unknown): string | undefined {
  if (!isObject(node)) return undefined;
  const ref = node.$ref;
  if (typeof ref === "string" && !ref.startsWith("#")) return ref;
  for (const value of Object.values(node)) {
    const found = externalRef(value);
    if (found) return found;
  }
  return undefined;
}
