// The contracts' named examples as seed data, so the sandbox starts with exactly the data the reference shows.
import { type ApiName, examplesOf, loadContract } from "../../lib/contract/index.js";

/**
 * A fresh copy of a named response example, e.g. `responseExample("links", "listDomains", "twoDomains")`. `T` is
 * the generated schema type of that response (the contract's lint checks that examples validate against it).
 */
export function responseExample<T>(api: ApiName, operationId: string, name: string, status = "200", mediaType = "application/json"): T {
  const contract = loadContract(api);
  const operation = contract.findOperation(operationId);
  const media = operation && contract.response(operation, status)?.content?.[mediaType];
  const example = media && examplesOf(media, contract.deref).find((candidate) => candidate.name === name);
  if (!example) throw new Error(`${api} ${operationId} ${status} ${mediaType} has no example ${name}`);
  return example.value as T;
}
