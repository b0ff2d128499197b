// The checks of the probes across operations (conformance/steps/scopes.ts, methods.ts): a narrower key, a method a
// path does not document. Each takes the exchange and what was sent and returns the Verdict (judge/probe-scenarios.ts
// calls them on the steps' scenarios).
import type { ApiName } from "../../lib/contract/index.js";
import type { Exchange, RecordedResponse } from "../model/exchange.js";
import { everyResponse, isRefusal, isSuccess, undocumentedMethodsRefused } from "../contract/words.js";
import type { Verdict } from "../model/finding.js";
import { verdictOf } from "./verdict.js";

/** What the narrower key was sent with: the scopes the operation needs, and those of them the key lacks. */
export interface ScopeProbe {
  operationId: string;
  scopes: string[];
  missing: string[];
}

/**
 * scope_enforcement: a key that holds every scope an operation needs is answered; one that lacks some is refused
 * with 403 and a body that names each missing scope. Undefined when nothing came back (not_a_server_error says so).
 */
export function scopesEnforced(
  api: ApiName,
  { operationId, scopes, missing }: ScopeProbe,
  exchange: Exchange,
  caseLabel: string,
): Verdict | undefined {
  const response = exchange.response;
  if (!response) return undefined;
  let problem = "";
  if (missing.length === 0) {
    if (isRefusal(api, response))
      problem = `a key that holds ${scopes.join(", ")} was refused ${operationId} with status ${response.status}`;
  } else if (!isRefusal(api, response)) {
    problem = `a key without ${missing.join(", ")} could call ${operationId} (status ${response.status})`;
  } else if (response.status !== 403) {
    problem = `a key without ${missing.join(", ")} was refused with status ${response.status}, not 403`;
  } else {
    const unnamed = missing.filter((scope) => !response.text.includes(scope));
    if (unnamed.length > 0)
      problem = `the 403 does not name the missing scope ${unnamed.join(", ")}: ${response.text.slice(0, 200)}`;
  }
  return verdictOf("scope_enforcement", operationId, problem, exchange, caseLabel);
}

/**
 * unsupported_method: a method the path does not document gets no server error, keeps what the contract promises of
 * every response (`x-every-response`: links, "All responses are JSON"), and is refused where the provider's word says
 * so (`x-undocumented-methods-refused`: pay, "All operations are POST"). Elsewhere a success is noted as an
 * observation: RFC 9110 §15.5.6 allows 405 but requires no refusal of a method a server does not document.
 */
export function methodRefused(
  api: ApiName,
  operationId: string,
  request: { method: string; path: string },
  exchange: Exchange,
  caseLabel: string,
  observe: (message: string) => void,
): Verdict {
  const { method, path } = request;
  const response = exchange.response;
  const promised = everyResponse(api);
  const refusal = undocumentedMethodsRefused(api);
  let problem = "";
  if (!response) problem = `no response: ${exchange.error}`;
  else if (response.status >= 500) problem = `${method} ${path} was answered with the server error ${response.status}`;
  else if (promised && !hasMediaType(response, promised.mediaType)) {
    const type = response.headers["content-type"] ?? "no Content-Type";
    problem = `${method} ${path} was answered with status ${response.status} and a body that is not ${promised.mediaType} (${type}: ${JSON.stringify(response.text.slice(0, 80))}), though ${promised.source}`;
  } else if (isSuccess(api, response)) {
    if (refusal) problem = `${method} ${path} succeeded with status ${response.status}, though ${refusal}`;
    else
      observe(
        `${method} ${path} succeeded with status ${response.status}; no source promises that a method the path does not document is refused`,
      );
  }
  return verdictOf("unsupported_method", operationId, problem, exchange, caseLabel);
}

/** Whether a response is of the media type (its `+json` kin for JSON) and, for JSON, a body that parses. */
function hasMediaType(response: RecordedResponse, mediaType: string): boolean {
  const type = (response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/json") return type === mediaType;
  return (type === "application/json" || type.endsWith("+json")) && response.isJson;
}
