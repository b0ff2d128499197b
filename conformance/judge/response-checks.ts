// The response checks: the checks that judge every exchange on its own, in the order they run, and the function that
// runs the selected ones. Each lives with the checks of its kind: the documented response (response-conformance.ts),
// acceptance and refusal (acceptance.ts), list pages and what a seed has seen together (list-parameters.ts).
import { PROFILES } from "../apis.js";
import { ignoredAuth, negativeDataRejection, positiveDataAcceptance } from "./acceptance.js";
import { assumptionBroken, type CheckNote } from "./assumptions.js";
import type { CheckName, ResponseCheckName } from "../model/check-registry.js";
import type { Evidence } from "../model/finding.js";
import { listParametersProblems, seenTogetherProblems } from "./list-parameters.js";
import type { Outcome, ResponseCheckInput } from "./response-check-input.js";
import {
  contentTypeConformance,
  responseHeadersConformance,
  responseSchemaConformance,
  statusCodeConformance,
} from "./response-conformance.js";

/** Every response check of the registry (its `cases`, not `onArrival`): the type leaves out none. */
const RESPONSE_CHECKS: { [N in ResponseCheckName]: (input: ResponseCheckInput) => Outcome } = {
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

export const RESPONSE_CHECK_NAMES = Object.keys(RESPONSE_CHECKS) as ResponseCheckName[];

/** What one response check found on an exchange: its outcome when it applies, and what it noted beside it. */
export interface ResponseCheckResult {
  check: ResponseCheckName;
  /** "" for a pass, the reason for a failure; undefined when the check does not apply to this exchange. */
  outcome: Outcome;
  /** Broken `x-assumption`s (warnings) and what the contract leaves open (observations). */
  notes: CheckNote[];
  /** A failure's places, when the check locates them (one failure each). */
  evidence?: Evidence[];
}

/** Runs the given response checks on one exchange, in the registry's order, and returns what each found. */
export function runResponseChecks(
  input: Omit<ResponseCheckInput, "note" | "locate">,
  checks: ReadonlySet<CheckName>,
): ResponseCheckResult[] {
  return RESPONSE_CHECK_NAMES.filter((check) => checks.has(check)).map((check) => {
    const notes: CheckNote[] = [];
    let evidence: Evidence[] | undefined;
    const outcome = RESPONSE_CHECKS[check]({
      ...input,
      note: (note) => notes.push(note),
      locate: (found) => (evidence = found),
    });
    return { check, outcome, notes, ...(outcome && evidence?.length ? { evidence } : {}) };
  });
}
