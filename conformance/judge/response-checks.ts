// The response checks: the checks that judge every exchange on its own, in the order they run, and the function that
// runs the selected ones. Each lives with the checks of its kind: the documented response (response-conformance.ts),
// acceptance and refusal (acceptance.ts), list pages and what a seed has seen together (list-parameters.ts).
import { PROFILES } from "../apis.js";
import { ignoredAuth, negativeDataRejection, positiveDataAcceptance } from "./acceptance.js";
import { assumptionBroken } from "./assumptions.js";
import { listParametersProblems, seenTogetherProblems } from "./list-parameters.js";
import type { Outcome, ResponseCheckInput } from "./response-check-input.js";
import {
  contentTypeConformance,
  responseHeadersConformance,
  responseSchemaConformance,
  statusCodeConformance,
} from "./response-conformance.js";

const RESPONSE_CHECKS: Record<string, (input: ResponseCheckInput) => Outcome> = {
  /** A 5xx or no response at all is a failure for any request, valid or not. */
  not_a_server_error({ exchange }) {
    if (exchange.error) return `no response: ${exchange.error}`;
    return exchange.response!.status >= 500 ? `server error ${exchange.response!.status}` : "";
  },
  status_code_conformance: statusCodeConformance,
  content_type_conformance: contentTypeConformance,
  response_schema_conformance: responseSchemaConformance,
  response_headers_conformance: responseHeadersConformance,
  negative_data_rejection: negativeDataRejection,
  positive_data_acceptance: positiveDataAcceptance,

  /** A list page does what its limit and page ask, and its envelope reports them (list-parameters.ts). */
  list_parameters_honoured(input) {
    if (input.expectation !== "valid") return undefined;
    return listParametersProblems(input.model.op.api, input.exchange);
  },

  /** What a seed reports only as seen together: a broken assumption, a warning unless --strict (list-parameters.ts). */
  seen_together(input) {
    const problems = seenTogetherProblems(input.model.op.api, input.model.op.operationId, input.exchange);
    const relation = PROFILES[input.model.op.api].seenTogether;
    return problems && relation ? assumptionBroken(input, problems, relation.assumption) : problems;
  },

  ignored_auth: ignoredAuth,
};

export const RESPONSE_CHECK_NAMES = Object.keys(RESPONSE_CHECKS);

/** Runs the selected response checks on one exchange. Returns [check, outcome] for each applicable check. */
export function runResponseChecks(
  input: ResponseCheckInput,
  selected: ReadonlySet<string>,
  starting?: (check: string) => void,
): Array<[string, string]> {
  const results: Array<[string, string]> = [];
  for (const [name, check] of Object.entries(RESPONSE_CHECKS)) {
    if (!selected.has(name)) continue;
    starting?.(name);
    const outcome = check(input);
    if (outcome !== undefined) results.push([name, outcome]);
  }
  return results;
}
