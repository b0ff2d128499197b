// scope_enforcement: with a second, narrower key (--read-only-api-key) the provider's fail-closed scopes are tried.
// The scopes each operation needs are the contract's (the operation's security requirement); the narrower key is
// taken to hold the read scopes (`…:read`) and none of the others. A read must be answered; a write must be refused
// with 403 and a body that names each missing scope. Writes are tried only with --allow-writes, since a provider that
// ignores scopes would create something.
import { resourceId } from "../contract/links.js";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import type { RequestCase } from "../model/cases.js";
import { isSuccess } from "../contract/words.js";
import { type ScopeProbe, scopesEnforced } from "../judge/probe-checks.js";
import { markAsOurs } from "../send/resources.js";
import { firstExample, type StepParts } from "./parts.js";

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

/** What the scope probes use of the step's parts. */
type ScopeParts = Pick<StepParts, "context" | "send" | "judge" | "ledger" | "tracker" | "linkValues">;

export async function scopeEnforcement(step: ScopeParts, operationIds: string[]): Promise<void> {
  const { context, send, ledger } = step;
  if (!context.options.checks.has(CHECK) || ledger.skippedChecks.has(CHECK)) return;
  if (!context.options.credentials.readApiKey) {
    const reason = "needs a second, narrower key: --read-only-api-key (or CATALOG_READ_API_KEY)";
    ledger.decide({ about: "check", name: CHECK, decision: "skipped", reason });
    return;
  }
  for (const operationId of operationIds) {
    if (send.aborted) return;
    const model = context.model(operationId);
    const scopes = requiredScopes(model.op.operation, model.op.api);
    const missing = scopes.filter((scope) => !/:read$/.test(scope));
    if (scopes.length === 0 || (missing.length > 0 && !context.options.allowWrites)) continue;
    await withNarrowerKey(step, { operationId, scopes, missing });
  }
}

/** Sends the operation's first example with the narrower key and judges the answer. */
async function withNarrowerKey(
  { context, send, judge, ledger, tracker, linkValues }: ScopeParts,
  probe: ScopeProbe,
): Promise<void> {
  const { operationId, scopes, missing } = probe;
  const model = context.model(operationId);
  const kind = context.resources.find((k) => k.create === operationId);
  const example = firstExample(context, operationId);
  if (!example) return;
  // The deployment's own values (a real category), so that a refusal can only be about the key.
  const fromLinks = await linkValues.valuesFor(operationId, send, judge);
  const holds = missing.length ? `lacks ${missing.join(", ")}` : `holds ${scopes.join(", ")}`;
  const requestCase: RequestCase = {
    ...fromLinks.apply(kind ? markAsOurs(example, context) : example),
    label: `with the narrower key (${holds})`,
  };
  context.options.onProgress?.({ type: "operation", operationId, phase: "scopes" });
  const exchange = await send.send(model, requestCase, { auth: "read-only" });
  judge.exchange(model, exchange, "any", requestCase.label);
  if (kind && isSuccess(model.op.api, exchange.response))
    tracker.created(kind, resourceId(exchange.response?.json, kind.id), operationId);
  const verdict = scopesEnforced(model.op.api, probe, exchange, requestCase.label);
  if (verdict) ledger.add(verdict);
}
