/* eslint-disable max-lines -- over the cap since the code was formatted at 120 columns; to be split */
// Compares two OpenAPI 3.x documents operation by operation: parameters, request bodies, responses, headers,
// security, servers and webhooks. Schemas are compared by schemas.ts; what breaks depends on who writes the data.
import { type Document, escapeSegment, locateOperations, type OperationLocation, valueAt } from "../contract/index.js";
import { ChangeCollector, type DiffResult, type Direction } from "./changes.js";
import { asObject, field, isArray, isObject, keysOf, stringField, stringList } from "./json.js";
import {
  child,
  compareSchemas,
  existingChild,
  report,
  resolve,
  show,
  type Node,
  type Site,
  type WalkContext,
} from "./schemas.js";

export function diffDocuments(before: Document, after: Document): DiffResult {
  const collector = new ChangeCollector();
  compareServers(collector, before, after);
  compareOperations(collector, before, after);
  compareSecuritySchemes(collector, before, after);
  const changes = collector.changes();
  return {
    before: { title: before.info.title, version: before.info.version },
    after: { title: after.info.title, version: after.info.version },
    changes,
    breaking: changes.filter((c) => c.breaking).length,
  };
}

export function operationLabel(op: OperationLocation): string {
  return op.webhook ? `webhook ${op.path} (${op.method.toUpperCase()})` : `${op.method.toUpperCase()} ${op.path}`;
}

/** Operations match by method and path shape: `/shops/{id}` and `/shops/{shopId}` are the same URL. */
function operationKey(op: OperationLocation): string {
  return `${op.webhook ? "webhook" : "path"} ${op.method} ${op.path.replace(/\{[^}]*\}/g, "{}")}`;
}

function compareOperations(collector: ChangeCollector, before: Document, after: Document): void {
  const afterByKey = new Map(locateOperations(after).map((op) => [operationKey(op), op]));
  const removed: OperationLocation[] = [];
  for (const op of locateOperations(before)) {
    const match = afterByKey.get(operationKey(op));
    if (!match) {
      removed.push(op);
      continue;
    }
    afterByKey.delete(operationKey(op));
    compareOperation(collector, before, after, op, match);
  }
  const added = [...afterByKey.values()];
  for (const op of removed) {
    const moved = added.find(
      (other) => op.operationId !== undefined && other.operationId === op.operationId && other.webhook === op.webhook,
    );
    if (moved) {
      added.splice(added.indexOf(moved), 1);
      collector.add(
        {
          rule: "operation-path-changed",
          breaking: true,
          where: "",
          message: `${operationLabel(op)} moved to ${operationLabel(moved)}`,
          pointer: moved.pointer,
        },
        operationLabel(moved),
      );
      compareOperation(collector, before, after, op, moved);
    } else {
      collector.add(
        {
          rule: "operation-removed",
          breaking: true,
          where: "",
          message: `${operationLabel(op)} removed`,
          pointer: op.pointer,
        },
        operationLabel(op),
      );
    }
  }
  for (const op of added) {
    collector.add(
      {
        rule: "operation-added",
        breaking: false,
        where: "",
        message: `${operationLabel(op)} added`,
        pointer: op.pointer,
      },
      operationLabel(op),
    );
  }
}

function compareOperation(
  collector: ChangeCollector,
  before: Document,
  after: Document,
  b: OperationLocation,
  a: OperationLocation,
): void {
  const ctx: WalkContext = { before, after, collector, operation: operationLabel(a), visited: new Set() };
  const opBefore = resolve(before, b.pointer);
  const opAfter = resolve(after, a.pointer);
  // For a webhook the platform sends the request and the user's server writes the reply.
  const requestDirection: Direction = a.webhook ? "received" : "sent";
  const responseDirection: Direction = a.webhook ? "sent" : "received";
  const operationChange = (rule: string, breaking: boolean, message: string) =>
    collector.add({ rule, breaking, where: "", message, pointer: a.pointer }, ctx.operation);

  if (b.operationId !== a.operationId) {
    // Generated types (`operations[...]`) and docs anchors are keyed by operationId.
    operationChange("operation-id-changed", true, `operationId ${show(b.operationId)} became ${show(a.operationId)}`);
  }
  if (!field(opBefore.value, "deprecated") && field(opAfter.value, "deprecated"))
    operationChange("operation-deprecated", false, "operation deprecated");

  compareFields(
    ctx,
    { direction: requestDirection, where: "" },
    "parameter",
    parameters(before, b),
    parameters(after, a),
  );
  compareRequestBody(ctx, requestDirection, opBefore, opAfter);
  compareResponses(ctx, responseDirection, opBefore, opAfter);
  compareSecurity(ctx, a.webhook, effectiveSecurity(before, opBefore), effectiveSecurity(after, opAfter), a.pointer);
}

/** A parameter or a response header, with the name it is shown by. */
interface Field extends Node {
  label: string;
}

/** Parameters of the path item and the operation, keyed so that a renamed path parameter still matches. */
function parameters(doc: Document, op: OperationLocation): Map<string, Field> {
  const template = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const result = new Map<string, Field>();
  for (const base of [op.pointer.slice(0, op.pointer.lastIndexOf("/")), op.pointer]) {
    const list: unknown = valueAt(doc, `${base}/parameters`);
    if (!isArray(list)) continue;
    list.forEach((_, i) => {
      const node = resolve(doc, `${base}/parameters/${i}`);
      const location = stringField(node.value, "in");
      const name = stringField(node.value, "name");
      const key =
        location === "path"
          ? `path #${template.indexOf(name)}`
          : `${location} ${location === "header" ? name.toLowerCase() : name}`;
      result.set(key, { ...node, label: `${location} parameter ${name}` });
    });
  }
  return result;
}

/** Response headers by lower-case name; Content-Type is described by `content`, not here. */
function responseHeaders(doc: Document, response: Node): Map<string, Field> {
  const result = new Map<string, Field>();
  for (const name of keysOf(field(response.value, "headers"))) {
    if (name.toLowerCase() !== "content-type")
      result.set(name.toLowerCase(), { ...existingChild(doc, response, "headers", name), label: `header ${name}` });
  }
  return result;
}

const SERIALIZATION = ["style", "explode", "allowReserved", "allowEmptyValue"] as const;

/** Parameters (request side) and headers (response side): added, removed, required, serialization and schema. */
function compareFields(
  ctx: WalkContext,
  site: Site,
  kind: "parameter" | "header",
  before: Map<string, Field>,
  after: Map<string, Field>,
): void {
  const sent = site.direction === "sent";
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(key);
    const a = after.get(key);
    const here: Site = { ...site, where: [site.where, (a ?? b)!.label].filter(Boolean).join(" ") };
    if (b && !a) {
      report(ctx, here, `${kind}-removed`, true, `${b.label} removed`, b.pointer);
      continue;
    }
    if (!b && a) {
      const required = field(a.value, "required") === true;
      report(
        ctx,
        here,
        required ? `required-${kind}-added` : `${kind}-added`,
        required && sent,
        `${required ? "required" : "optional"} ${a.label} added`,
        a.pointer,
      );
      continue;
    }
    if (!b || !a) continue;
    const [nameBefore, nameAfter] = [stringField(b.value, "name"), stringField(a.value, "name")];
    if (field(b.value, "in") === "path" && nameBefore !== nameAfter) {
      // Same URL, but typed clients pass path parameters by name.
      report(
        ctx,
        here,
        "path-parameter-renamed",
        true,
        `path parameter ${nameBefore} renamed to ${nameAfter}`,
        a.pointer,
      );
    }
    if (Boolean(field(b.value, "required")) !== Boolean(field(a.value, "required"))) {
      const nowRequired = Boolean(field(a.value, "required"));
      report(
        ctx,
        here,
        `${kind}-became-${nowRequired ? "required" : "optional"}`,
        nowRequired ? sent : !sent,
        `${a.label} became ${nowRequired ? "required" : "optional"}`,
        a.pointer,
      );
    }
    const serialization = SERIALIZATION.filter((k) => field(b.value, k) !== field(a.value, k));
    if (serialization.length > 0) {
      report(
        ctx,
        here,
        `${kind}-serialization-changed`,
        true,
        serialization.map((k) => `${k} ${show(field(b.value, k))} became ${show(field(a.value, k))}`).join("; "),
        a.pointer,
      );
    }
    if (field(b.value, "content") || field(a.value, "content")) compareContent(ctx, here, b, a);
    else {
      const schemaBefore = child(ctx.before, b, "schema");
      const schemaAfter = child(ctx.after, a, "schema");
      if (schemaBefore && schemaAfter) compareSchemas(ctx, here, schemaBefore, schemaAfter);
    }
  }
}

function compareRequestBody(ctx: WalkContext, direction: Direction, opBefore: Node, opAfter: Node): void {
  const b = child(ctx.before, opBefore, "requestBody");
  const a = child(ctx.after, opAfter, "requestBody");
  const site: Site = { direction, where: "request body" };
  const sent = direction === "sent";
  if (b && !a) report(ctx, site, "request-body-removed", true, "request body removed", b.pointer);
  if (!b && a) {
    const required = field(a.value, "required") === true;
    report(
      ctx,
      site,
      required ? "required-request-body-added" : "request-body-added",
      required && sent,
      `${required ? "required" : "optional"} request body added`,
      a.pointer,
    );
  }
  if (!b || !a) return;
  if (Boolean(field(b.value, "required")) !== Boolean(field(a.value, "required"))) {
    const nowRequired = Boolean(field(a.value, "required"));
    report(
      ctx,
      site,
      `request-body-became-${nowRequired ? "required" : "optional"}`,
      nowRequired ? sent : !sent,
      `request body became ${nowRequired ? "required" : "optional"}`,
      a.pointer,
    );
  }
  compareContent(ctx, site, b, a);
}

/** Media types of a body (or of a parameter's `content`): one removed breaks, one added is content negotiation. */
function compareContent(ctx: WalkContext, site: Site, before: Node, after: Node): void {
  const beforeTypes = keysOf(field(before.value, "content"));
  const afterTypes = keysOf(field(after.value, "content"));
  for (const mediaType of new Set([...beforeTypes, ...afterTypes])) {
    const here: Site = { ...site, where: `${site.where} ${mediaType}` };
    if (!afterTypes.includes(mediaType)) {
      report(
        ctx,
        here,
        "media-type-removed",
        true,
        `media type ${mediaType} removed`,
        `${before.pointer}/content/${escapeSegment(mediaType)}`,
      );
    } else if (!beforeTypes.includes(mediaType)) {
      report(
        ctx,
        here,
        "media-type-added",
        false,
        `media type ${mediaType} added`,
        `${after.pointer}/content/${escapeSegment(mediaType)}`,
      );
    } else {
      const schemaBefore = child(ctx.before, before, "content", mediaType, "schema") ?? {
        pointer: `${before.pointer}/content/${escapeSegment(mediaType)}`,
        value: {},
      };
      const schemaAfter = child(ctx.after, after, "content", mediaType, "schema") ?? {
        pointer: `${after.pointer}/content/${escapeSegment(mediaType)}`,
        value: {},
      };
      compareSchemas(ctx, here, schemaBefore, schemaAfter);
    }
  }
}

/** `2XX` covers `200`..`299`: a code replaced by its range (or the reverse) is compared, not removed and added. */
function sameClass(status: string, other: string): boolean {
  return (
    status !== other && status[0] === other[0] && /^[1-5]/.test(status) && (/XX$/i.test(status) || /XX$/i.test(other))
  );
}

function compareResponses(ctx: WalkContext, direction: Direction, opBefore: Node, opAfter: Node): void {
  const beforeStatuses = keysOf(field(opBefore.value, "responses"));
  const afterStatuses = keysOf(field(opAfter.value, "responses"));
  const response = (doc: Document, op: Node, status: string) => existingChild(doc, op, "responses", status);
  for (const status of new Set([...beforeStatuses, ...afterStatuses])) {
    const inBefore = beforeStatuses.includes(status);
    const inAfter = afterStatuses.includes(status);
    if (inBefore && inAfter) {
      compareResponse(
        ctx,
        { direction, where: `response ${status}` },
        response(ctx.before, opBefore, status),
        response(ctx.after, opAfter, status),
      );
      continue;
    }
    const counterparts = (inBefore ? afterStatuses : beforeStatuses).filter(
      (other) => sameClass(status, other) && !(inBefore ? beforeStatuses : afterStatuses).includes(other),
    );
    for (const other of counterparts) {
      const [b, a] = inBefore ? [status, other] : [other, status];
      const site: Site = { direction, where: `response ${a}` };
      reportRangeChange(ctx, site, b, a, response(ctx.after, opAfter, a).pointer);
      compareResponse(ctx, site, response(ctx.before, opBefore, b), response(ctx.after, opAfter, a));
    }
    if (counterparts.length > 0) continue;
    const site: Site = { direction, where: `response ${status}` };
    if (inBefore) {
      // Readers rely on a documented status; a writer (a webhook reply) may no longer send it.
      report(
        ctx,
        site,
        "response-removed",
        true,
        `response ${status} removed`,
        response(ctx.before, opBefore, status).pointer,
      );
    } else {
      // A reader meets a new success it does not handle; new errors fall under the error handling every reader has.
      const success = /^[123]/.test(status);
      report(
        ctx,
        site,
        "response-added",
        direction === "received" && success,
        `response ${status} added`,
        response(ctx.after, opAfter, status).pointer,
      );
    }
  }
}

/**
 * A code replaced by its range (`200` -> `2XX`), or the reverse, is always breaking: the generated types key each
 * response by its status key (`responses[200]` vs `responses["2XX"]`), so code that reads the response by its type no
 * longer compiles (like `operation-id-changed`). On the wire, a range also lets the writer send any status of the
 * class (a reader meets statuses it did not handle), and a code binds the writer (a webhook reply) to one.
 */
function reportRangeChange(ctx: WalkContext, site: Site, before: string, after: string, pointer: string): void {
  const widened = /XX$/i.test(after);
  report(
    ctx,
    site,
    widened ? "response-range-widened" : "response-range-narrowed",
    true,
    `response ${before} ${widened ? "widened" : "narrowed"} to ${after} (the generated types key it as ${after})`,
    pointer,
  );
}

function compareResponse(ctx: WalkContext, site: Site, before: Node, after: Node): void {
  compareFields(ctx, site, "header", responseHeaders(ctx.before, before), responseHeaders(ctx.after, after));
  compareContent(ctx, site, before, after);
}

type Requirement = Record<string, string[]>;

/** Security requirement objects: scheme name -> scopes. */
function requirementsOf(value: unknown): Requirement[] {
  if (!isArray(value)) return [];
  return value
    .filter(isObject)
    .map((requirement) =>
      Object.fromEntries(Object.entries(requirement).map(([scheme, scopes]) => [scheme, stringList(scopes)])),
    );
}

function effectiveSecurity(doc: Document, op: Node): Requirement[] {
  const requirements = requirementsOf(field(op.value, "security") ?? doc.security);
  return requirements.length === 0 ? [{}] : requirements; // `[]` (or none) means no credentials
}

function describeRequirement(requirement: Requirement): string {
  const parts = Object.entries(requirement).map(([scheme, scopes]) =>
    scopes.length > 0 ? `${scheme} (${scopes.join(" ")})` : scheme,
  );
  return parts.length > 0 ? parts.join(" + ") : "no credentials";
}

/** True when credentials that meet `held` also meet `needed`: the same schemes or fewer, the same scopes or fewer. */
function satisfies(held: Requirement, needed: Requirement): boolean {
  return Object.entries(needed).every(
    ([scheme, scopes]) => held[scheme] !== undefined && scopes.every((s) => held[scheme]!.includes(s)),
  );
}

function compareSecurity(
  ctx: WalkContext,
  webhook: boolean,
  before: Requirement[],
  after: Requirement[],
  pointer: string,
): void {
  const change = (rule: string, breaking: boolean, message: string) =>
    ctx.collector.add({ rule, breaking, where: "security", message, pointer }, ctx.operation);
  if (webhook) {
    // The platform authenticates itself to the user's server, which verifies exactly what it was told to.
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      change(
        "security-changed",
        true,
        `security ${before.map(describeRequirement).join(" or ")} became ${after.map(describeRequirement).join(" or ")}`,
      );
    }
    return;
  }
  for (const held of before) {
    if (!after.some((needed) => satisfies(held, needed))) {
      change(
        "security-narrowed",
        true,
        `callers with ${describeRequirement(held)} are no longer accepted (now ${after.map(describeRequirement).join(" or ")})`,
      );
    }
  }
  for (const held of after) {
    if (!before.some((needed) => satisfies(held, needed)))
      change("security-widened", false, `callers with ${describeRequirement(held)} are now accepted`);
  }
}

function compareSecuritySchemes(collector: ChangeCollector, before: Document, after: Document): void {
  const schemes = (doc: Document) => Object.keys(doc.components?.securitySchemes ?? {});
  const add = (rule: string, breaking: boolean, message: string, pointer: string) =>
    collector.add({ rule, breaking, where: "", message, pointer });
  for (const name of new Set([...schemes(before), ...schemes(after)])) {
    const pointer = `/components/securitySchemes/${escapeSegment(name)}`;
    if (!schemes(after).includes(name)) {
      add("security-scheme-removed", true, `security scheme ${name} removed`, pointer);
      continue;
    }
    if (!schemes(before).includes(name)) {
      add("security-scheme-added", false, `security scheme ${name} added`, pointer);
      continue;
    }
    const b = asObject(resolve(before, pointer).value);
    const a = asObject(resolve(after, pointer).value);
    const fields = ["type", "in", "name", "scheme", "openIdConnectUrl"].filter((k) => b[k] !== a[k]);
    for (const flow of new Set([...keysOf(b.flows), ...keysOf(a.flows)])) {
      const fb = field(b.flows, flow);
      const fa = field(a.flows, flow);
      if (!isObject(fa) || !isObject(fb)) {
        if (!fa) fields.push(`flows.${flow}`);
        else
          add("security-flow-added", false, `security scheme ${name}: flow ${flow} added`, `${pointer}/flows/${flow}`);
        continue;
      }
      fields.push(
        ...["authorizationUrl", "tokenUrl", "refreshUrl"]
          .filter((k) => fb[k] !== fa[k])
          .map((k) => `flows.${flow}.${k}`),
      );
      for (const scope of keysOf(fb.scopes)) {
        if (!(scope in asObject(fa.scopes)))
          add(
            "security-scope-removed",
            true,
            `security scheme ${name}: scope ${scope} removed from flow ${flow}`,
            `${pointer}/flows/${flow}/scopes`,
          );
      }
      for (const scope of keysOf(fa.scopes)) {
        if (!(scope in asObject(fb.scopes)))
          add(
            "security-scope-added",
            false,
            `security scheme ${name}: scope ${scope} added to flow ${flow}`,
            `${pointer}/flows/${flow}/scopes`,
          );
      }
    }
    if (fields.length > 0)
      add("security-scheme-changed", true, `security scheme ${name} changed: ${fields.join(", ")}`, pointer);
  }
}

function compareServers(collector: ChangeCollector, before: Document, after: Document): void {
  const urls = (doc: Document) => (isArray(doc.servers) ? doc.servers.map((server) => stringField(server, "url")) : []);
  for (const [index, url] of urls(before).entries()) {
    if (!urls(after).includes(url))
      collector.add({
        rule: "server-removed",
        breaking: true,
        where: "",
        message: `server ${url} removed`,
        pointer: `/servers/${index}`,
      });
  }
  for (const [index, url] of urls(after).entries()) {
    if (!urls(before).includes(url))
      collector.add({
        rule: "server-added",
        breaking: false,
        where: "",
        message: `server ${url} added`,
        pointer: `/servers/${index}`,
      });
  }
}
