// Compares two OpenAPI 3.x documents operation by operation: parameters, request bodies, responses, headers,
// security, servers and webhooks. Messages are compared by messages.ts, security by security.ts and schemas by
// schemas.ts; what breaks depends on who writes the data.
import { type Document, locateOperations, type OperationLocation } from "../contract/index.js";
import { ChangeCollector, type DiffResult, type Direction } from "./changes.js";
import { field, isArray, stringField } from "./json.js";
import { compareFields, compareRequestBody, compareResponses, parameters } from "./messages.js";
import { compareSecurity, compareSecuritySchemes, effectiveSecurity } from "./security.js";
import { resolve, show, type WalkContext } from "./walk.js";

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
