// The HTTP messages of an operation: parameters, request body, responses, their headers and media types. Each
// schema inside is handed to schemas.ts with the direction of the message (who writes it).
import { type Document, escapeSegment, type OperationLocation, valueAt } from "../contract/index.js";
import { type Direction } from "./changes.js";
import { field, isArray, keysOf, stringField } from "./json.js";
import { compareSchemas } from "./schemas.js";
import { child, existingChild, report, resolve, show, type Node, type Site, type WalkContext } from "./walk.js";

/** A parameter or a response header, with the name it is shown by. */
interface Field extends Node {
  label: string;
}

/** Parameters of the path item and the operation, keyed so that a renamed path parameter still matches. */
export function parameters(doc: Document, op: OperationLocation): Map<string, Field> {
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
export function compareFields(
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

export function compareRequestBody(ctx: WalkContext, direction: Direction, opBefore: Node, opAfter: Node): void {
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

export function compareResponses(ctx: WalkContext, direction: Direction, opBefore: Node, opAfter: Node): void {
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
