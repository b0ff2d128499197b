// `contracts overlay record`: an Overlay 1.0 document of the deviations a conformance report proved, one cause per
// failing response_schema_conformance location (deviations.ts), each with its evidence in `x-` fields: the check,
// the operations, an exchange as the report has it (redacted), what was observed and the seed sentence it departs
// from. Nothing the report did not prove goes in: a deviation is read again from the failure's own recorded body.
// An answer with a status or media type the operation does not document (a 500 HTML page) is recorded as a response
// of the operation (responses.ts). What an OpenAPI document cannot say (a 405 page without Allow to a method no
// operation documents, a server error, valid data refused) is recorded as a behaviour: an `x-known-behaviours` entry,
// by cause, on each operation it failed on, which a run with the overlay reads. Where an identity deployment's
// discovery document advertises endpoints elsewhere than the contract's endpoint table (a fact the run observed, no
// failure), each such operation gets an `x-advertised-endpoint` with the advertised path and the discovery member,
// which the next run reads to tell those endpoints known (identity/paths.ts).
import {
  type ApiName,
  canonicalContract,
  joinPointer,
  parsePointer,
  pointerOf,
  valueAt,
} from "../../lib/contract/index.js";
import type { OverlayAction, OverlayDocument } from "../../lib/contract/overlay.js";
import type { FailureRecord } from "../report/ledger.js";
import type { RunReport } from "../report/report.js";
import { ADVERTISED_ENDPOINT, type AdvertisedEndpoint } from "../model/identity-facts.js";
import { readSeedSentenceTable, type SeedName } from "../seed-sentences.js";
import { causeOf, groupCauses } from "../report/causes.js";
import { CHECK_LIST } from "../model/check-registry.js";
import { type Deviation, deviationsOf, SCHEMA_CHECK } from "./deviations.js";
import { exampleActions } from "./examples.js";
import { KNOWN_BEHAVIOURS, type KnownBehaviour } from "./outcome.js";
import { responseActions } from "./responses.js";

/** A JSONPath (RFC 9535) that selects exactly the node at a JSON Pointer: `$.components.schemas['a/b']`. */
export function jsonPathOf(pointer: string): string {
  return `$${parsePointer(pointer)
    .map((segment) =>
      /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)
        ? `.${segment}`
        : `['${segment.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}']`,
    )
    .join("")}`;
}

/** The narrowest schema of what was observed: its value where the contract fixes one (const, enum), else its type. */
function observedSchema(value: unknown, fixedValue: boolean): Record<string, unknown> {
  if (fixedValue && (value === null || typeof value !== "object")) return { const: value };
  const type =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "array"
        : typeof value === "number"
          ? Number.isInteger(value)
            ? "integer"
            : "number"
          : typeof value;
  return { type };
}

const SEEDS: Record<ApiName, SeedName> = { identity: "identity", links: "links", catalog: "commerce", pay: "commerce" };

/**
 * The seed sentence a deviation departs from: among the API's shape and behaviour sentences, the one that names the
 * field (a table row starting with it counts most) and the operation's path; undefined when none names the field.
 */
function seedSentenceOf(api: ApiName, fields: string[], path: string | undefined): string | undefined {
  const words = (text: string) => fields.filter((field) => new RegExp(`(^|[^\\w])${field}([^\\w]|$)`).test(text));
  const scored = readSeedSentenceTable()
    .sentences.filter((s) => s.seed === SEEDS[api] && (s.kind === "shape" || s.kind === "behaviour"))
    .map((s) => {
      const named = words(s.text);
      const row = fields.some((field) => s.text.startsWith(`| ${field} |`));
      const onPath = path !== undefined && s.text.includes(`| ${path.split("{")[0]}`);
      return { text: s.text, score: named.length === 0 ? 0 : named.length + (row ? 2 : 0) + (onPath ? 2 : 0) };
    })
    .filter((s) => s.score > 0);
  scored.sort((a, b) => b.score - a.score);
  return scored[0]?.text;
}

/**
 * The failure's exchange as the report recorded it (already redacted), for the evidence: the request's body too, which
 * is what valid data refused is about (a `{}` campaign add).
 */
function exchangeOf(failure: FailureRecord): Record<string, unknown> {
  const { method, url, body } = failure.request;
  return {
    request: { method, url, ...(body !== undefined ? { body } : {}) },
    response: failure.response && { status: failure.response.status, body: failure.response.body },
  };
}

/** The field names a deviation is about: the property at its place, or the keys it lacks and has. */
function fieldsOf(deviation: Deviation): string[] {
  if (deviation.kind === "keys") return [...deviation.missing, ...Object.keys(deviation.extra)];
  const last = parsePointer(deviation.instancePath)
    .filter((segment) => !/^\d+$/.test(segment))
    .pop();
  return last === undefined ? [] : [last];
}

interface Evidence {
  deviation: Deviation;
  failure: FailureRecord;
}

type Proof = Record<`x-${string}`, unknown>;

/** The actions of one cause: removals that a merge cannot make first, then the update that carries the evidence. */
function actionsOf(api: ApiName, cause: string, evidence: Evidence[]): OverlayAction[] {
  const contract = canonicalContract(api);
  const { deviation, failure } = evidence[0]!;
  const operations = [...new Set(evidence.map((e) => e.deviation.operationId))].sort();
  const path = contract.findOperation(deviation.operationId)?.path;
  const sentence = seedSentenceOf(api, fieldsOf(deviation), path);
  const proof: Proof = {
    "x-cause": cause,
    "x-check": SCHEMA_CHECK,
    "x-schema-location": deviation.location,
    "x-operations": operations,
    "x-instance-path": deviation.instancePath,
    "x-exchange": exchangeOf(failure),
    ...(sentence
      ? { "x-seed-sentence": sentence }
      : { "x-seed-sentence": null, "x-seed-sentence-missing": "no sentence of the seed names this field" }),
  };
  return deviation.kind === "value"
    ? valueActions(api, cause, evidence, proof, operations)
    : keyActions(api, cause, evidence, proof, operations);
}

/** A value of another type: the schema is removed (a merge cannot take a $ref or a const away), then written back
 * widened to what was observed. */
function valueActions(
  api: ApiName,
  cause: string,
  evidence: Evidence[],
  proof: Proof,
  operations: string[],
): OverlayAction[] {
  const contract = canonicalContract(api);
  const { deviation } = evidence[0]!;
  const segments = parsePointer(deviation.location);
  const name = segments.pop()!;
  const written = valueAt(contract.document, deviation.location) as Record<string, unknown>;
  const resolved = contract.resolve(deviation.location) as Record<string, unknown>;
  const fixed = "const" in resolved || "enum" in resolved;
  const observed = [
    ...new Map(
      evidence.map((e) => {
        const schema = observedSchema((e.deviation as { observed?: unknown }).observed, fixed);
        return [JSON.stringify(schema), schema] as const;
      }),
    ).values(),
  ];
  const shown = observed.map((schema) => JSON.stringify(schema.const ?? schema.type)).join(" or ");
  return [
    {
      target: jsonPathOf(deviation.location),
      description: `Part of ${cause}: removes the documented schema, written back widened by the next action.`,
      remove: true,
      "x-cause": cause,
    },
    {
      target: jsonPathOf(pointerOf(segments)),
      description: `The deployment answers ${shown} at ${deviation.instancePath} (${operations.join(", ")}), where the contract documents ${JSON.stringify(written)}.`,
      update: { [name]: { anyOf: [written, ...observed] } },
      "x-observed": observed,
      ...proof,
    },
  ];
}

/** Documented keys missing (and others in their place): removed from `required`, the new ones documented. */
function keyActions(
  api: ApiName,
  cause: string,
  evidence: Evidence[],
  proof: Proof,
  operations: string[],
): OverlayAction[] {
  const { deviation } = evidence[0]!;
  const keys = evidence.map((e) => e.deviation).filter((d) => d.kind === "keys");
  const missing = [...new Set(keys.flatMap((k) => k.missing))].sort();
  const extra = Object.assign({}, ...keys.map((k) => k.extra)) as Record<string, unknown>;
  const object = canonicalContract(api).resolve(deviation.location) as { properties?: Record<string, unknown> };
  // One key missing and one undocumented in its place: the same field under another name, with the documented schema.
  const renamed = missing.length === 1 && Object.keys(extra).length === 1;
  const properties = Object.fromEntries(
    Object.entries(extra).map(([key, value]) => [
      key,
      renamed ? object.properties?.[missing[0]!] : observedSchema(value, false),
    ]),
  );
  const removals: OverlayAction[] = missing.map((key) => ({
    target: `${jsonPathOf(joinPointer(deviation.location, "required"))}[?@ == '${key.replaceAll("'", "\\'")}']`,
    description: `Part of ${cause}: the deployment does not answer ${key}.`,
    remove: true,
    "x-cause": cause,
  }));
  const has = Object.keys(extra).length ? ` and answers ${Object.keys(extra).join(", ")} instead` : "";
  const update: OverlayAction = {
    target: jsonPathOf(deviation.location),
    description: `The deployment's ${deviation.instancePath || "body"} (${operations.join(", ")}) lacks ${missing.join(", ")}${has}.`,
    // Not required: a deployment that answers the documented key again still passes (and the cause shows as fixed).
    update: Object.keys(extra).length ? { properties } : {},
    "x-observed": { missing, extra: Object.keys(extra) },
    ...proof,
  };
  return [...removals, update];
}

/**
 * The failures no schema change can say, one cause at a time: on each operation the cause failed on, an update that
 * adds the cause to the operation's `x-known-behaviours`. The first action carries the evidence, as a shape's does.
 */
function behaviourActions(report: RunReport, failures: FailureRecord[]): OverlayAction[] {
  const contract = canonicalContract(report.api);
  return groupCauses(report.api, failures).flatMap((cause) => {
    const operations = cause.operations.filter((operationId) => contract.findOperation(operationId));
    const behaviour: KnownBehaviour = {
      check: cause.check,
      message: cause.message,
      exchange: exchangeOf(cause.reproduction),
      breaks: cause.breaks,
    };
    const proof = failureProof(report.api, cause.reproduction, operations);
    return operations.map((operationId, index) => ({
      target: jsonPathOf(contract.findOperation(operationId)!.pointer),
      description: `The deployment fails ${cause.check} on ${operations.join(", ")}: ${cause.message}`,
      update: { [KNOWN_BEHAVIOURS]: { [cause.key]: behaviour } },
      "x-cause": cause.key,
      ...(index === 0 ? proof : {}),
    }));
  });
}

/** The evidence of a cause the run's failures proved (a behaviour, an undocumented response), on its first action. */
function failureProof(api: ApiName, failure: FailureRecord, operations: string[]): Proof {
  const breaks = groupCauses(api, [failure])[0]!.breaks;
  return {
    "x-check": failure.check,
    "x-operations": operations,
    "x-exchange": exchangeOf(failure),
    // What the check enforces, a seed's section or a standard's: a 500 page breaks RFC 9110, no seed sentence.
    "x-enforces": CHECK_LIST.find((check) => check.name === failure.check)?.enforces ?? null,
    ...(breaks.length
      ? { "x-seed-sentence": breaks[0] }
      : { "x-seed-sentence": null, "x-seed-sentence-missing": "no seed sentence names what this cause breaks" }),
  };
}

/** The cause of an advertised endpoint an overlay records: `advertised endpoint | token_endpoint /oidc/token`. */
export const advertisedEndpointCause = ({ member, path }: AdvertisedEndpoint) =>
  `advertised endpoint | ${member} ${path}`;

/**
 * The endpoints the report observed advertised elsewhere than the contract's endpoint table, and not yet known: on
 * each operation, its `x-advertised-endpoint`; the operations of one member are one cause, the first action carrying
 * the evidence (the discovery document's member and URL path, the contract's path).
 */
function advertisedEndpointActions(report: RunReport): OverlayAction[] {
  const contract = canonicalContract(report.api);
  const advertised = report.observations.flatMap((o) =>
    o.kind === "deployment" && !o.known ? (o.advertised ?? []) : [],
  );
  const members = [...new Set(advertised.map(advertisedEndpointCause))];
  return members.flatMap((cause) => {
    const of = advertised.filter(
      (each) => advertisedEndpointCause(each) === cause && contract.findOperation(each.operationId),
    );
    const operations = of.map((each) => each.operationId);
    return of.map(({ operationId, member, path }, index) => {
      const operation = contract.findOperation(operationId)!;
      const proof: Proof = {
        "x-discovery-member": member,
        "x-operations": operations,
        "x-contract-path": operation.path,
      };
      return {
        target: jsonPathOf(operation.pointer),
        description: `The deployment's discovery document advertises ${operations.join(" and ")} at ${path} (${member}), where the contract's endpoint table has ${operation.path}; the run followed it.`,
        update: { [ADVERTISED_ENDPOINT]: { path, member } },
        "x-cause": cause,
        ...(index === 0 ? proof : {}),
      };
    });
  });
}

/** The deviations the report's failing response_schema_conformance verdicts proved, grouped by cause. */
export function causesOfReport(report: RunReport): Map<string, Evidence[]> {
  const causes = new Map<string, Evidence[]>();
  for (const failure of report.failures) {
    if (failure.check !== SCHEMA_CHECK || !failure.response) continue;
    for (const deviation of deviationsOf(
      report.api,
      failure.operationId,
      failure.response.status,
      failure.response.body,
    )) {
      const cause = causeOf(deviation);
      causes.set(cause, [...(causes.get(cause) ?? []), { deviation, failure }]);
    }
  }
  return causes;
}

/** The Overlay 1.0 document of a report's proven deviations (no actions when it proved none). */
export function overlayFromReport(report: RunReport, source: string): OverlayDocument {
  const causes = causesOfReport(report);
  const sorted = [...causes.entries()].sort(([a], [b]) => a.localeCompare(b));
  const seen = sorted.flatMap(([cause, evidence]) =>
    evidence.map(({ deviation, failure }) => ({ cause, deviation, status: failure.response!.status })),
  );
  const shapes = new Set(sorted.flatMap(([, evidence]) => evidence.map((e) => e.failure)));
  const responses = responseActions(
    report.api,
    report.failures.filter((failure) => !shapes.has(failure)),
    { source, finishedAt: report.finishedAt },
    (failure, operations) => failureProof(report.api, failure, operations),
    jsonPathOf,
  );
  const actions = [
    ...sorted.flatMap(([cause, evidence]) => actionsOf(report.api, cause, evidence)),
    ...responses.actions,
    ...behaviourActions(
      report,
      report.failures.filter((failure) => !shapes.has(failure) && !responses.explained.has(failure)),
    ),
    ...exampleActions(report.api, seen, jsonPathOf),
    ...advertisedEndpointActions(report),
  ];
  return {
    overlay: "1.0.0",
    info: {
      title: `Deviations of the ${report.api} deployment at ${report.baseUrl}`,
      version: report.finishedAt,
      "x-recorded-from": source,
      "x-seed": report.seed,
    },
    extends: `generated/openapi/${report.api}.json`,
    actions,
  };
}
