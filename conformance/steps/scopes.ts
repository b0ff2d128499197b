// scope_enforcement: with a second, narrower key (--read-only-api-key) the provider's fail-closed scopes are tried.
// The scopes each operation needs are the contract's (the operation's security requirement); the narrower key is
// taken to hold the read scopes (`…:read`) and none of the others. A read must be answered; a write must be refused
// with 403 and a body that names each missing scope. Writes are tried only with --allow-writes, since a provider that
// ignores scopes would create something. The step sends and returns what it tried; judge/probe-scenarios.ts judges it.
import { resourceId } from "../contract/links.js";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import type { RequestCase } from "../model/cases.js";
import { isSuccess } from "../contract/words.js";
import type { RoleExchange } from "../model/scenario.js";
import type { ScopesScenario } from "../model/step-scenarios.js";
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
type ScopeParts = Pick<StepParts, "context" | "send" | "judge" | "tracker" | "linkValues">;

/** Tries each operation that needs a scope with the narrower key, when the step's item `checks` include the check. */
export async function scopeEnforcement(
  step: ScopeParts,
  operationIds: string[],
  checks: string[],
): Promise<ScopesScenario | undefined> {
  const { context, send } = step;
  if (!checks.includes(CHECK)) return undefined;
  const scenario: ScopesScenario = {
    family: "step",
    name: "scopes",
    narrowerKey: Boolean(context.options.credentials.readApiKey),
    tries: [],
  };
  if (!scenario.narrowerKey) return scenario;
  for (const operationId of operationIds) {
    if (send.aborted) break;
    const model = context.model(operationId);
    const scopes = requiredScopes(model.op.operation, model.op.api);
    const missing = scopes.filter((scope) => !/:read$/.test(scope));
    if (scopes.length === 0 || (missing.length > 0 && !context.options.allowWrites)) continue;
    const tried = await withNarrowerKey(step, operationId, holding(scopes, missing));
    if (tried) scenario.tries.push({ scopes, missing, tried });
  }
  return scenario;
}

/** What the narrower key holds of the scopes, for the case's label. */
const holding = (scopes: string[], missing: string[]) =>
  missing.length ? `lacks ${missing.join(", ")}` : `holds ${scopes.join(", ")}`;

/** Sends the operation's first example with the narrower key, judged with the response checks only. */
async function withNarrowerKey(
  { context, send, judge, tracker, linkValues }: ScopeParts,
  operationId: string,
  holds: string,
): Promise<RoleExchange | undefined> {
  const model = context.model(operationId);
  const kind = context.resources.find((k) => k.create === operationId);
  const example = firstExample(context, operationId);
  if (!example) return undefined;
  // The deployment's own values (a real category), so that a refusal can only be about the key.
  const fromLinks = await linkValues.valuesFor(operationId, send, judge);
  const requestCase: RequestCase = {
    ...fromLinks.apply(kind ? markAsOurs(example, context) : example),
    label: `with the narrower key (${holds})`,
  };
  context.options.onProgress?.({ type: "operation", operationId, phase: "scopes" });
  const exchange = await send.send(model, requestCase, { auth: "read-only" });
  judge.exchange(model, exchange, "any", requestCase.label);
  if (kind && isSuccess(model.op.api, exchange.response))
    tracker.created(kind, resourceId(exchange.response?.json, kind.id), operationId);
  return { role: "narrower key", operationId, label: requestCase.label, exchange };
}
