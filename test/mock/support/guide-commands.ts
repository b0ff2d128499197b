// What a guide's curl command asks of the mock: the status and the named example it picks (`Prefer`, `__code`,
// `__example`), and that example as the contract documents it; whether a command's output is what its page says.
import { expect } from "vitest";
import { API_NAMES, type ApiName } from "../../../lib/contract/index.js";
import { listOperations, pointerSegment, resolvePointer } from "../../support/bundle-nodes.js";

/** `Prefer: code=403, example=x` (or the query parameters) as { code, example }. */
export function preferences(command: string): { code?: number; example?: string } {
  const prefer = /Prefer:\s*([^'"]+)/.exec(command)?.[1] ?? "";
  const query = /\?([^'"\s]+)/.exec(command)?.[1] ?? "";
  const pick = (name: string) =>
    new RegExp(`(?:^|[\\s,;])${name}=([^,;\\s]+)`).exec(prefer)?.[1] ??
    new URLSearchParams(query).get(`__${name}`) ??
    undefined;
  const code = pick("code");
  return { code: code === undefined ? undefined : Number(code), example: pick("example") };
}

/** The contract's example `name` of the response `status` of the operation at `method` `path`. */
export function documentedExample(api: ApiName, method: string, path: string, status: number, name: string): unknown {
  expect(API_NAMES).toContain(api);
  const op = listOperations(api).find(
    (o) =>
      !o.webhook &&
      o.method === method.toLowerCase() &&
      new RegExp(`^${o.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
  );
  expect(op, `${method} ${path} is not an operation of ${api}`).toBeDefined();
  const responses = op!.operation.responses as Record<string, unknown>;
  const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => k in responses)!;
  const content = resolvePointer(api, `${op!.pointer}/responses/${key}`).content ?? {};
  for (const mediaType of Object.keys(content)) {
    const pointer = `${op!.pointer}/responses/${key}/content/${pointerSegment(mediaType)}/examples/${pointerSegment(name)}`;
    if (content[mediaType].examples?.[name]) return resolvePointer(api, pointer).value;
  }
  throw new Error(`${api} ${method} ${path} documents no example ${name} for ${status}`);
}

/**
 * Each line of `expected`, in order, found in a line of `output`; `...` stands for anything, a whole line or within
 * one.
 */
export function missingLines(output: string, expected: string): string[] {
  const lines = output.toLowerCase().split("\n");
  const matches = (line: string, want: string) => {
    let from = 0;
    return want.split("...").every((piece) => {
      const found = line.indexOf(piece, from);
      from = found + piece.length;
      return found >= 0;
    });
  };
  let at = 0;
  const missing: string[] = [];
  for (const want of expected.split("\n").map((l) => l.trim().toLowerCase())) {
    if (want === "" || want === "...") continue;
    const found = lines.findIndex((line, i) => i >= at && matches(line, want));
    if (found < 0) missing.push(want);
    else at = found + 1;
  }
  return missing;
}
