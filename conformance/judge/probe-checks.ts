// The checks of the probes across operations (conformance/steps/scopes.ts, methods.ts): a narrower key, a method a
// path does not document. Each takes the exchange and what was sent and returns the Verdict.
import type { ApiName } from "../../lib/contract/index.js";
import type { Exchange } from "../send/transport.js";
import { isRefusal, isSuccess } from "./contract-words.js";
import { type Verdict, verdictOf } from "./verdict.js";

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

/** unsupported_method: a method the path does not document neither succeeds nor gets a server error. */
export function methodRefused(
  api: ApiName,
  operationId: string,
  request: { method: string; path: string },
  exchange: Exchange,
  caseLabel: string,
): Verdict {
  const { method, path } = request;
  const response = exchange.response;
  const problem = !response
    ? `no response: ${exchange.error}`
    : isSuccess(api, response)
      ? `${method} ${path} succeeded with status ${response.status}`
      : response.status >= 500
        ? `${method} ${path} was answered with the server error ${response.status}`
        : "";
  return verdictOf("unsupported_method", operationId, problem, exchange, caseLabel);
}
