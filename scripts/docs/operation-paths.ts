// Hand-written pages name an endpoint by its operationId, `[[op:getUserInfo]]`, and get its path template from the
// bundles in generated/openapi/, so that a path lives only in its spec (issue 16). The token is replaced in the raw
// markdown before anything reads it (page rendering, the local search index, mermaid diagrams, the docs tests), so it
// works alike in prose, code fences and diagrams. Double braces are not used: VitePress reads them as Vue
// interpolation outside code.
import { API_NAMES, listOperationsOf, loadBundle } from "../../lib/contract/index.js";

export const OPERATION_TOKEN = /\[\[op:([\w.-]+)\]\]/g;

let pathsById: Map<string, string[]> | undefined;

/** operationId -> the path templates of the path operations (not webhooks) carrying it, over every API. */
function operationPaths(): Map<string, string[]> {
  if (pathsById) return pathsById;
  pathsById = new Map();
  for (const api of API_NAMES) {
    for (const { operationId, path, webhook } of listOperationsOf(loadBundle(api), api)) {
      if (!webhook) pathsById.set(operationId, [...(pathsById.get(operationId) ?? []), path]);
    }
  }
  return pathsById;
}

/** The markdown with every `[[op:<operationId>]]` replaced by that operation's path; throws on an unknown or ambiguous id. */
export function withOperationPaths(markdown: string, where = "markdown"): string {
  return markdown.replace(OPERATION_TOKEN, (token, operationId: string, offset: number) => {
    const paths = operationPaths().get(operationId) ?? [];
    if (paths.length === 1) return paths[0]!;
    const line = markdown.slice(0, offset).split("\n").length;
    const problem =
      paths.length === 0
        ? "no operation of any bundle has this operationId"
        : `several operations have it (${paths.join(", ")})`;
    throw new Error(`${where}:${line}: ${token}: ${problem}`);
  });
}
