// A fetch that checks every response of a contract path against the contract (documented status, required
// headers and their schemas, media type, body schema; lib/contract's checkResponse) and throws on any violation,
// so a sandbox test fails the moment the sandbox drifts from the specs. Paths outside the contracts
// (/_sandbox/..., /interaction/...) pass.
import { type ApiName, loadContract, mediaTypeOf } from "../../../lib/contract/index.js";

export class ContractViolation extends Error {
  override readonly name = "ContractViolation";
}

export type CheckedFetch = typeof fetch & {
  /** How many responses were checked against an operation of the contract. */
  readonly checked: number;
};

/** The body as the checker sees it: parsed JSON for a JSON media type (undefined when it does not parse), else text. */
function readBody(contentType: string | null, text: string): { body: unknown } | { problem: string } {
  if (!mediaTypeOf(contentType).endsWith("json")) return { body: text };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { problem: `the body is not JSON: ${text.slice(0, 200)}` };
  }
}

/** A fetch for the sandbox at `bases` (API → base URL) that validates every contract response it receives. */
export function contractFetch(
  bases: Partial<Record<ApiName, string>>,
  inner: typeof fetch = (input, init) => fetch(input, init),
): CheckedFetch {
  const apiByOrigin = new Map(Object.entries(bases).map(([api, base]) => [new URL(base).origin, api as ApiName]));
  let checked = 0;
  const checkedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const response = await inner(request);
    const url = new URL(request.url);
    const api = apiByOrigin.get(url.origin);
    const match = api && loadContract(api).route(request.method, url.pathname);
    if (!api || !match) return response;
    const contentType = response.headers.get("content-type");
    const read = readBody(contentType, await response.clone().text());
    const problems =
      "problem" in read
        ? [read.problem]
        : loadContract(api).checkResponse(match.operation, {
            status: response.status,
            headers: response.headers,
            contentType,
            body: read.body,
          });
    checked += 1;
    if (problems.length > 0) {
      throw new ContractViolation(
        `${request.method} ${url.pathname} → ${response.status} breaks ${api} ${match.operation.operationId}: ${problems.join("; ")}`,
      );
    }
    return response;
  };
  return Object.defineProperty(checkedFetch, "checked", { get: () => checked }) as CheckedFetch;
}
