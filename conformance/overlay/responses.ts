// The statuses and media types a deployment answers an operation with that the contract does not document (a
// framework's 500 `text/html` page for a path id that is not a number): `contracts overlay record` writes them as
// responses of the operation, which OpenAPI can say, so that the overlaid contract judges them documented and the
// mock, the docs and the generated types show them. Only an answer to the operation's own request is one: the 405 page
// a method no operation of the path documents gets has no operation to hold it, and stays a behaviour (record.ts), as
// does what no document makes right (a 5xx is still a server error, not_a_server_error).
import {
  type ApiName,
  canonicalContract,
  documentedMediaType,
  documentedResponse,
  joinPointer,
  mediaTypeOf,
  responseKeyFor,
} from "../../lib/contract/index.js";
import type { OverlayAction } from "../../lib/contract/overlay.js";
import { causeOf } from "../report/causes.js";
import type { FailureRecord } from "../report/ledger.js";

/** The checks whose failure an undocumented response explains. */
const RESPONSE_CHECKS = new Set(["status_code_conformance", "content_type_conformance"]);

/** An answer of an operation that its documented responses do not cover: the status, or its media type. */
export interface UndocumentedResponse {
  check: "status_code_conformance" | "content_type_conformance";
  status: number;
  /** Its media type, "" for an answer without a body. */
  mediaType: string;
}

/** What of a response the canonical contract does not document for `operationId`; undefined when it documents it. */
export function undocumentedResponseOf(
  api: ApiName,
  operationId: string,
  response: { status: number; headers: Record<string, string>; body: string },
): UndocumentedResponse | undefined {
  const contract = canonicalContract(api);
  const operation = contract.findOperation(operationId);
  if (!operation) return undefined;
  const mediaType = response.body.length === 0 ? "" : mediaTypeOf(response.headers["content-type"]);
  const key = responseKeyFor(operation, response.status);
  if (key === undefined) return { check: "status_code_conformance", status: response.status, mediaType };
  const content = documentedResponse(contract, operation, key).response.content ?? {};
  if (mediaType === "" || Object.keys(content).length === 0 || documentedMediaType(content, mediaType) !== undefined)
    return undefined;
  return { check: "content_type_conformance", status: response.status, mediaType };
}

/** The loosest schema the evidence allows: a text for a text type, any value for JSON, nothing known for the rest. */
function loosestSchema(mediaType: string): Record<string, unknown> {
  if (mediaType.startsWith("text/")) return { type: "string" };
  if (mediaType === "application/json" || mediaType.endsWith("+json")) return {};
  return { type: "string", contentMediaType: mediaType };
}

/** The response the operation answers `status` with: what it documented for it (by range or `default`), plus it. */
function widenedResponse(api: ApiName, operationId: string, found: UndocumentedResponse, description: string) {
  const contract = canonicalContract(api);
  const operation = contract.findOperation(operationId)!;
  const key = responseKeyFor(operation, found.status);
  const documented: { content?: Record<string, unknown> } =
    key === undefined ? {} : documentedResponse(contract, operation, key).response;
  const content = found.mediaType === "" ? {} : { [found.mediaType]: { schema: loosestSchema(found.mediaType) } };
  return { ...documented, description, content: { ...documented.content, ...content } };
}

type Proof = Record<`x-${string}`, unknown>;

/**
 * The actions that add each undocumented answer the report's failures proved to the operations it was seen on, one
 * cause per status and media type whatever the operation; and the failures they explain, which are no behaviour.
 */
export function responseActions(
  api: ApiName,
  failures: readonly FailureRecord[],
  run: { source: string; finishedAt: string },
  evidence: (failure: FailureRecord, operations: string[]) => Proof,
  jsonPathOf: (pointer: string) => string,
): { actions: OverlayAction[]; explained: Set<FailureRecord> } {
  const contract = canonicalContract(api);
  const byCause = new Map<string, { found: UndocumentedResponse; failures: FailureRecord[] }>();
  for (const failure of failures) {
    if (!RESPONSE_CHECKS.has(failure.check) || !failure.response) continue;
    const found = undocumentedResponseOf(api, failure.operationId, failure.response);
    if (!found || found.check !== failure.check) continue;
    const cause = causeOf(found);
    const entry = byCause.get(cause) ?? { found, failures: [] };
    entry.failures.push(failure);
    byCause.set(cause, entry);
  }
  const actions = [...byCause.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([cause, { found, failures: seen }]) => {
      const operations = [...new Set(seen.map((failure) => failure.operationId))].sort();
      const answered = found.mediaType ? `${found.status} with ${found.mediaType}` : `${found.status} without a body`;
      const description = `Recorded by contracts overlay record from the run of ${run.finishedAt} (${run.source}), cause ${cause}: the deployment answers ${answered}, which the contract does not document.`;
      return operations.map((operationId, index): OverlayAction => {
        const pointer = joinPointer(contract.findOperation(operationId)!.pointer, "responses");
        return {
          target: jsonPathOf(pointer),
          description: `The deployment answers ${operations.join(", ")} with ${answered}: ${seen[0]!.message}`,
          update: { [String(found.status)]: widenedResponse(api, operationId, found, description) },
          "x-cause": cause,
          ...(index === 0
            ? { "x-response": { status: found.status, mediaType: found.mediaType }, ...evidence(seen[0]!, operations) }
            : {}),
        };
      });
    });
  return { actions, explained: new Set([...byCause.values()].flatMap((entry) => entry.failures)) };
}
