// unsupported_method: a method a path does not document must not succeed. GET is tried wherever a path does not
// document it (a read cannot harm); PATCH, which none of the contracts documents, only with --allow-writes. The probe
// carries the run's valid credentials (signed like any request), so that only the method makes it wrong.
import { exampleCases } from "../plan/cases.js";
import { isSuccess } from "../judge/contract-words.js";
import type { Session } from "../send/session.js";
import { verdictOf } from "../judge/verdict.js";

const CHECK = "unsupported_method";

export async function unsupportedMethods(session: Session, operationIds: string[]): Promise<void> {
  if (!session.options.checks.has(CHECK) || session.skippedChecks.has(CHECK)) return;
  const byPath = new Map<string, string[]>();
  for (const operationId of operationIds) {
    const model = session.model(operationId);
    byPath.set(model.op.path, [...(byPath.get(model.op.path) ?? []), operationId]);
  }
  for (const [path, ids] of byPath) {
    if (session.aborted) return;
    const documented = new Set(ids.map((id) => session.model(id).op.method.toUpperCase()));
    const method = !documented.has("GET")
      ? "GET"
      : session.options.allowWrites && !documented.has("PATCH")
        ? "PATCH"
        : undefined;
    if (!method) continue;
    const model = session.model(ids[0]!);
    const [example] = exampleCases(model, session.profile, session.options.credentials);
    if (!example) continue;
    const label = `${method} ${path} (the path documents ${[...documented].join(", ")})`;
    session.options.onProgress?.({ type: "operation", operationId: model.op.operationId, phase: "unsupported method" });
    const exchange = await session.send(model, { ...example, label }, "valid", (request) => {
      request.method = method;
      if (method === "GET") {
        delete request.body;
        delete request.headers["Content-Type"];
      }
    });
    const response = exchange.response;
    const problem = !response
      ? `no response: ${exchange.error}`
      : isSuccess(model.op.api, response)
        ? `${method} ${path} succeeded with status ${response.status}`
        : response.status >= 500
          ? `${method} ${path} was answered with the server error ${response.status}`
          : "";
    session.ledger.add(verdictOf(CHECK, model.op.operationId, problem, exchange, label));
  }
}
