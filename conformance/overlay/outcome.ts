// What a run with `--overlay` says of the overlay: its file and title, and for each of its causes (actions sharing an
// `x-cause`, as `contracts overlay record` writes them; an action without one is its own cause) whether the run saw
// the deviation again (confirmed), answered the operations it names without it (no longer seen: fixed, the action can
// go), or did not reach them. The run's recorded exchanges are read again against the canonical contract (the same
// reading that recorded the overlay), since the overlaid contract that judged the run accepts them both ways; so is an
// undocumented response (responses.ts), reached where the run ran its check on one of its operations. A behaviour
// (`x-known-behaviours` on an operation) is confirmed by the run's own failures: those it names are known. An
// identity endpoint advertised elsewhere (`x-advertised-endpoint`) is confirmed by a request of the run to its path,
// and no longer seen when the run read the discovery document and sent nothing there.
import { type ApiName, canonicalContract, loadContract } from "../../lib/contract/index.js";
import { parseApiName } from "../../lib/cli.js";
import { installOverlay, readOverlayFile } from "../../lib/contract/overlay.js";
import { forgetLookups } from "../contract/lookup.js";
import type { RecordedExchange } from "../model/recorded-traffic.js";
import { causeOf } from "../report/causes.js";
import type { FailureRecord } from "../report/ledger.js";
import { ADVERTISED_ENDPOINT } from "../model/identity-facts.js";
import { deviationsOf } from "./deviations.js";
import { undocumentedResponseOf } from "./responses.js";

/** The extension of an operation that lists, by cause, what its deployment does that a schema cannot say. */
export const KNOWN_BEHAVIOURS = "x-known-behaviours";

/** One recorded behaviour: the check it fails, its message, the evidence (redacted) and what it breaks. */
export interface KnownBehaviour {
  check: string;
  message: string;
  exchange: Record<string, unknown>;
  breaks: string[];
}

/** The causes each operation of the contract as loaded (the overlay applied) lists in its `x-known-behaviours`. */
function knownBehaviours(api: ApiName): Map<string, Set<string>> {
  const byOperation = new Map<string, Set<string>>();
  for (const { operationId, operation } of loadContract(api).operations()) {
    const listed = (operation as Record<string, unknown>)[KNOWN_BEHAVIOURS];
    if (listed && typeof listed === "object") byOperation.set(operationId, new Set(Object.keys(listed)));
  }
  return byOperation;
}

/**
 * Marks the failures whose cause their operation lists in `x-known-behaviours` as known: reported, not failing. A
 * cause on an operation the overlay does not name for it is new.
 */
export function markKnownBehaviours(api: ApiName, failures: readonly FailureRecord[]): void {
  const known = knownBehaviours(api);
  for (const failure of failures)
    if (known.get(failure.operationId)?.has(causeOf(failure))) {
      failure.known = true;
      failure.knownFrom = "overlay";
    }
}

export interface OverlayCause {
  cause: string;
  /** 1-based positions of its actions in the overlay. */
  actions: number[];
  description?: string;
  operations: string[];
  state: "confirmed" | "no longer seen" | "not reached";
}

export interface OverlayOutcome {
  file: string;
  title: string;
  version: string;
  causes: OverlayCause[];
}

/** The operationId and status of each recorded exchange the canonical contract routes, with its body. */
function answered(api: ApiName, baseUrl: string, exchanges: readonly RecordedExchange[]) {
  const contract = canonicalContract(api);
  const prefix = URL.canParse(baseUrl) ? new URL(baseUrl).pathname.replace(/\/$/, "") : "";
  return exchanges.flatMap((exchange) => {
    if (!exchange.response || !URL.canParse(exchange.request.url)) return [];
    let pathname = new URL(exchange.request.url).pathname;
    if (prefix && pathname.startsWith(prefix)) pathname = pathname.slice(prefix.length) || "/";
    const match = contract.route(exchange.request.method, pathname);
    return match ? [{ operationId: match.operation.operationId, response: exchange.response }] : [];
  });
}

/**
 * What the run showed of each cause of the overlay. A shape is seen in the exchanges; a behaviour in the run's
 * failures, reached where `ran(check, operationId)` says the run exercised its check on one of its operations.
 */
export function overlayOutcome(
  api: ApiName,
  file: string,
  run: {
    baseUrl: string;
    exchanges: readonly RecordedExchange[];
    failures: readonly FailureRecord[];
    ran: (check: string, operationId: string) => boolean;
  },
): OverlayOutcome {
  const overlay = readOverlayFile(file);
  const seen = new Set<string>();
  const reached = new Set<string>();
  for (const { operationId, response } of answered(api, run.baseUrl, run.exchanges)) {
    reached.add(operationId);
    for (const deviation of deviationsOf(api, operationId, response.status, response.body))
      seen.add(causeOf(deviation));
    const undocumented = undocumentedResponseOf(api, operationId, response);
    if (undocumented) seen.add(causeOf(undocumented));
  }
  for (const failure of run.failures) seen.add(causeOf(failure));
  const paths = new Set(
    run.exchanges.flatMap((exchange) =>
      URL.canParse(exchange.request.url) ? [new URL(exchange.request.url).pathname] : [],
    ),
  );
  /** The path of each advertised endpoint's cause, as its actions record it. */
  const advertisedPaths = new Map<string, string>();
  const behaviourReached = (entry: OverlayCause, check: unknown) =>
    typeof check === "string" && entry.operations.some((operationId) => run.ran(check, operationId));
  const causes = new Map<string, OverlayCause>();
  /** The check of each behaviour and undocumented response cause (its first action's `x-check`). */
  const checks = new Map<string, unknown>();
  overlay.actions.forEach((action, index) => {
    if (action["x-examples-of"]) return; // the examples in the deployment's shape: documentation, not a deviation
    const cause = typeof action["x-cause"] === "string" ? action["x-cause"] : `action #${index + 1} ${action.target}`;
    const entry = causes.get(cause) ?? { cause, actions: [], operations: [], state: "not reached" as const };
    entry.actions.push(index + 1);
    const operations = action["x-operations"];
    if (Array.isArray(operations)) entry.operations.push(...operations.map(String));
    if (action["x-check"] && action.description) entry.description = action.description;
    const behaviour = action.update && typeof action.update === "object" && KNOWN_BEHAVIOURS in action.update;
    const { path } = (action.update as { [ADVERTISED_ENDPOINT]?: { path?: unknown } } | undefined)?.[
      ADVERTISED_ENDPOINT
    ] ?? { path: undefined };
    if (typeof path === "string") advertisedPaths.set(cause, path);
    if ((behaviour || action["x-response"]) && action["x-check"]) checks.set(cause, action["x-check"]);
    causes.set(cause, entry);
  });
  const shapeReached = (entry: OverlayCause) => entry.operations.some((operationId) => reached.has(operationId));
  for (const entry of causes.values()) {
    const path = advertisedPaths.get(entry.cause);
    if (path !== undefined) {
      if (paths.has(path)) entry.state = "confirmed";
      else if (reached.has("getOpenIdConfiguration")) entry.state = "no longer seen";
      continue;
    }
    if (seen.has(entry.cause)) entry.state = "confirmed";
    else if (checks.has(entry.cause) ? behaviourReached(entry, checks.get(entry.cause)) : shapeReached(entry))
      entry.state = "no longer seen";
  }
  return { file, title: overlay.info.title, version: overlay.info.version, causes: [...causes.values()] };
}

/** `Overlay <file> (<title>, <version>): 13 of its 14 deviation(s) confirmed, 1 no longer seen, 0 not reached`. */
export function overlaySummary(outcome: OverlayOutcome): string {
  const count = (state: OverlayCause["state"]) => outcome.causes.filter((c) => c.state === state).length;
  return `Overlay ${outcome.file} (${outcome.title}, ${outcome.version}): ${count("confirmed")} of its ${outcome.causes.length} deviation(s) confirmed, ${count("no longer seen")} no longer seen, ${count("not reached")} not reached`;
}

/** `<cause> (actions #1, #2; addCampaign, updateCampaign)`: a cause of the overlay, named as every report names it. */
export function overlayCauseName(cause: OverlayCause): string {
  const actions = `action${cause.actions.length > 1 ? "s" : ""} ${cause.actions.map((n) => `#${n}`).join(", ")}`;
  const operations = cause.operations.length ? `; ${[...new Set(cause.operations)].join(", ")}` : "";
  return `${cause.cause} (${actions}${operations})`;
}

/** What the team should do about a cause: only an action the deployment no longer needs asks for something. */
export function overlayAdvice(cause: OverlayCause): string | undefined {
  return cause.state === "no longer seen"
    ? "the deployment no longer deviates here; remove these actions from the overlay"
    : undefined;
}

/** `no longer seen: <cause> (action #3; listOverlays): the deployment no longer deviates here; ...`. */
export function overlayCauseLine(cause: OverlayCause): string {
  const advice = overlayAdvice(cause);
  return `${cause.state}: ${overlayCauseName(cause)}${advice ? `: ${advice}` : ""}`;
}

/** The overlay's causes, no longer seen first (what to act on), then confirmed, then not reached. */
export function overlayCausesInOrder(outcome: OverlayOutcome): OverlayCause[] {
  const order: Array<OverlayCause["state"]> = ["no longer seen", "confirmed", "not reached"];
  return order.flatMap((state) => outcome.causes.filter((cause) => cause.state === state));
}

/** The overlay's lines of a console report. */
export function overlayLines(outcome: OverlayOutcome): string {
  const lines = overlayCausesInOrder(outcome).map((cause) => `  ${overlayCauseLine(cause)}`);
  return `${[overlaySummary(outcome), ...lines].join("\n")}\n`;
}

/** Runs `run` with loadContract reading the contract with the overlay applied (none: as it is), then restores it. */
export async function withOverlay<T>(file: string | undefined, apiName: string | undefined, run: () => Promise<T>) {
  if (file === undefined) return run();
  const { restore } = await installOverlay(file, apiName ? parseApiName(apiName) : undefined, forgetLookups);
  try {
    return await run();
  } finally {
    restore();
  }
}
