// scope_enforcement: with a second, narrower key (--read-only-api-key) the provider's fail-closed scopes are tried.
// The scopes each operation needs are the contract's (the operation's security requirement); the narrower key is
// taken to hold the read scopes (`…:read`) and none of the others. A read must be answered; a write must be refused
// with 403 and a body that names each missing scope. Writes are tried only with --allow-writes, since a provider that
// ignores scopes would create something.
import { linkedValues } from "../send/link-values.js";
import { resourceId } from "../contract/links.js";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import { exampleCases, type RequestCase } from "../plan/cases.js";
import { isRefusal, isSuccess } from "../judge/contract-words.js";
import type { Session } from "../send/session.js";
import { markAsOurs, type ResourceTracker } from "../send/resources.js";
import { verdictOf } from "../judge/verdict.js";

const CHECK = "scope_enforcement";

/** The scopes of the operation's first security requirement that names any. */
function requiredScopes(operation: { security?: Array<Record<string, string[]>> }, api: ApiName): string[] {
  const security = operation.security ?? loadContract(api).document.security ?? [];
  for (const requirement of security) {
    const scopes = Object.values(requirement).flat();
    if (scopes.length > 0) return scopes;
  }
  return [];
}

export async function scopeEnforcement(
  session: Session,
  tracker: ResourceTracker,
  operationIds: string[],
): Promise<void> {
  const { credentials, allowWrites } = session.options;
  if (!session.options.checks.has(CHECK) || session.skippedChecks.has(CHECK)) return;
  if (!credentials.readApiKey) {
    session.skippedChecks.set(CHECK, "needs a second, narrower key: --read-only-api-key (or CATALOG_READ_API_KEY)");
    return;
  }
  for (const operationId of operationIds) {
    if (session.aborted) return;
    const model = session.model(operationId);
    const scopes = requiredScopes(model.op.operation, model.op.api);
    if (scopes.length === 0) continue;
    const missing = scopes.filter((scope) => !/:read$/.test(scope));
    if (missing.length > 0 && !allowWrites) continue;
    const kind = session.resources.find((k) => k.create === operationId);
    const [example] = exampleCases(model, session.profile, credentials);
    if (!example) continue;
    // The deployment's own values (a real category), so that a refusal can only be about the key.
    const fromLinks = await linkedValues(session.context, session.caseSender, session.judge, operationId);
    const requestCase: RequestCase = {
      ...fromLinks.apply(kind ? markAsOurs(example, session) : example),
      label: `with the narrower key (${missing.length ? `lacks ${missing.join(", ")}` : `holds ${scopes.join(", ")}`})`,
    };
    session.options.onProgress?.({ type: "operation", operationId, phase: "scopes" });
    const exchange = await session.send(model, requestCase, "read-only");
    session.judge.exchange(model, exchange, "any", requestCase.label);
    const response = exchange.response;
    if (!response) continue; // not_a_server_error reports it
    if (kind && isSuccess(model.op.api, response))
      tracker.created(kind, resourceId(response.json, kind.id), operationId);
    let problem = "";
    if (missing.length === 0) {
      if (isRefusal(model.op.api, response))
        problem = `a key that holds ${scopes.join(", ")} was refused ${operationId} with status ${response.status}`;
    } else if (!isRefusal(model.op.api, response)) {
      problem = `a key without ${missing.join(", ")} could call ${operationId} (status ${response.status})`;
    } else if (response.status !== 403) {
      problem = `a key without ${missing.join(", ")} was refused with status ${response.status}, not 403`;
    } else {
      const unnamed = missing.filter((scope) => !response.text.includes(scope));
      if (unnamed.length > 0)
        problem = `the 403 does not name the missing scope ${unnamed.join(", ")}: ${response.text.slice(0, 200)}`;
    }
    session.ledger.add(verdictOf(CHECK, operationId, problem, exchange, requestCase.label));
  }
}
