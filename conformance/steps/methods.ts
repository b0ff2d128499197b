// unsupported_method: a method a path does not document, judged by what the contract promises of it (probe-checks.ts);
// allow_header: a 405 to it lists the path's methods. GET is tried wherever a path does not document it (a read cannot
// harm); PATCH, which none of the contracts documents, only with --allow-writes. The probe carries the run's valid
// credentials (signed like any request), so that only the method makes it wrong. The step sends the probes and
// returns them; judge/probe-scenarios.ts judges them.
import type { RunContext } from "../context.js";
import type { PreparedRequest } from "../apis.js";
import type { MethodProbe, UnsupportedMethodsScenario } from "../model/step-scenarios.js";
import { firstExample, type StepParts } from "./parts.js";

const CHECK = "unsupported_method";

/** Each probed path with the operations it documents, and the method it is probed with. */
export function probedPaths(
  context: RunContext,
  operationIds: string[],
): Map<string, { ids: string[]; method: string }> {
  const byPath = new Map<string, string[]>();
  for (const operationId of operationIds) {
    const { path } = context.model(operationId).op;
    byPath.set(path, [...(byPath.get(path) ?? []), operationId]);
  }
  const probed = new Map<string, { ids: string[]; method: string }>();
  for (const [path, ids] of byPath) {
    const documented = new Set(ids.map((id) => context.model(id).op.method.toUpperCase()));
    if (!documented.has("GET")) probed.set(path, { ids, method: "GET" });
    else if (context.options.allowWrites && !documented.has("PATCH")) probed.set(path, { ids, method: "PATCH" });
  }
  return probed;
}

/** Changes the prepared request into the undocumented method (a GET carries no body). */
const asMethod = (method: string) => (request: PreparedRequest) => {
  request.method = method;
  if (method === "GET") {
    delete request.body;
    delete request.headers["Content-Type"];
  }
};

/** Probes each path with a method it does not document, for the `checks` of the step's item that judge the probes. */
export async function unsupportedMethods(
  { context, send }: Pick<StepParts, "context" | "send">,
  operationIds: string[],
  checks: string[],
): Promise<UnsupportedMethodsScenario | undefined> {
  const judged = checks.filter((check) => check === CHECK || check === "allow_header");
  if (judged.length === 0) return undefined;
  const probes: MethodProbe[] = [];
  for (const [path, { ids, method }] of probedPaths(context, operationIds)) {
    if (send.aborted) break;
    const model = context.model(ids[0]!);
    const operationId = model.op.operationId;
    const example = firstExample(context, operationId);
    if (!example) continue;
    const documented = [...new Set(ids.map((id) => context.model(id).op.method.toUpperCase()))];
    const label = `${method} ${path} (the path documents ${documented.join(", ")})`;
    context.options.onProgress?.({ type: "operation", operationId, phase: "unsupported method" });
    const exchange = await send.send(model, { ...example, label }, { probe: asMethod(method) });
    probes.push({ method, path, documented, probe: { role: "probe", operationId, label, exchange } });
  }
  return { family: "step", name: "unsupported methods", checks: judged, probes };
}
