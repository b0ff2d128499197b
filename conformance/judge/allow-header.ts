// allow_header: a 405 lists the methods the target supports (RFC 9110 §15.5.6: the origin server MUST send Allow in
// a 405; §10.2.1: Allow lists the methods the target resource supports). Judged on the unsupported-method probe:
// when it is answered with 405, Allow must name every method the contract documents at that path and not the
// probed one. A refusal other than 405 says nothing about Allow (unsupported_method judges it). The message names the
// URL the run requested, which is where a QA engineer repeats it; what the contract documents there goes in a
// `(documented: ...)` part, which the cause key leaves out, so one missing Allow on every path is one cause.
import type { Exchange } from "../model/exchange.js";
import type { Verdict } from "../model/finding.js";
import { verdictOf } from "./verdict.js";

export const ALLOW_HEADER_CHECK = "allow_header";

export function allowListsMethods(
  operationId: string,
  probe: { method: string; documented: string[] },
  exchange: Exchange,
  caseLabel: string,
): Verdict | undefined {
  const response = exchange.response;
  if (response?.status !== 405) return undefined;
  const header = response.headers.allow;
  const listed = new Set(
    (header ?? "")
      .split(",")
      .map((method) => method.trim().toUpperCase())
      .filter(Boolean),
  );
  const missing = probe.documented.filter((method) => !listed.has(method));
  const requested = `${probe.method} ${exchange.request.url}`;
  const documented = `(documented: ${probe.documented.join(", ")})`;
  const problem =
    header === undefined
      ? `${requested} got 405 without an Allow header (RFC 9110 §15.5.6) ${documented}`
      : listed.has(probe.method)
        ? `${requested} got 405, yet its Allow header lists ${probe.method} ("${header}")`
        : missing.length > 0
          ? `${requested} got 405 with Allow "${header}", which leaves out ${missing.join(", ")} (RFC 9110 §10.2.1)`
          : "";
  return verdictOf(ALLOW_HEADER_CHECK, operationId, problem, exchange, caseLabel);
}
