/* eslint-disable max-lines -- over the cap since the code was formatted at 120 columns; to be split */
// Direction-aware comparison of two JSON Schemas (OpenAPI 3.1 / 2020-12, with 3.0's `nullable`). Every
// constraint is read as "which values are accepted": a change that accepts more widens, one that accepts less
// narrows, and isBreaking() decides from who writes the data whether that breaks the user.
import { canonicalPointer, type Document, escapeSegment, valueAt } from "../contract/index.js";
import { type ChangeCollector, type Direction, type Extent, extentName, isBreaking } from "./changes.js";
import { asArray, asObject, field, isArray, isObject, type JsonObject, keysOf, stringList } from "./json.js";

/** A node of a document once its `$ref`s are followed: the value and the pointer where it really lives. */
export interface Node {
  pointer: string;
  value: unknown;
}

export function resolve(doc: Document, pointer: string): Node {
  const canonical = canonicalPointer(doc, pointer, doc.info.title);
  const value: unknown = valueAt(doc, canonical);
  return { pointer: canonical, value };
}

/** The child `key` of a resolved node, resolved; undefined when the node has no such child. */
export function child(doc: Document, node: Node, ...keys: string[]): Node | undefined {
  let value = node.value;
  for (const key of keys) value = field(value, key);
  if (value === undefined) return undefined;
  return existingChild(doc, node, ...keys);
}

/** The child `key` of a resolved node, resolved, where the caller knows it exists (throws when it does not). */
export function existingChild(doc: Document, node: Node, ...keys: string[]): Node {
  return resolve(doc, `${node.pointer}/${keys.map((key) => escapeSegment(key)).join("/")}`);
}

export interface WalkContext {
  before: Document;
  after: Document;
  collector: ChangeCollector;
  /** The operation being walked, e.g. `POST /api/orders`. */
  operation: string;
  /** Node pairs already compared in this operation (schemas may be recursive). */
  visited: Set<string>;
}

export interface Site {
  direction: Direction;
  /** Human location inside the operation, e.g. `request body application/json`. */
  where: string;
  /** Path inside the schema, e.g. `.variants[].title`. */
  path?: string;
}

export function report(
  ctx: WalkContext,
  site: Site,
  rule: string,
  breaking: boolean,
  message: string,
  pointer: string,
): void {
  const where = site.path ? `${site.where} ${site.path}` : site.where;
  ctx.collector.add({ rule, breaking, direction: site.direction, where, message, pointer }, ctx.operation);
}

const within = (site: Site, step: string): Site => ({ ...site, path: `${site.path ?? ""}${step}` });

/** Short JSON for messages. */
export function show(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;
const COMBINATORS = ["oneOf", "anyOf", "allOf"] as const;

/** Keywords compared by their meaning below; any other keyword that changes is reported as breaking both ways. */
const UNDERSTOOD = new Set<string>([
  "type",
  "nullable",
  "enum",
  "const",
  "format",
  "pattern",
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  "multipleOf",
  "uniqueItems",
  "required",
  "properties",
  "additionalProperties",
  "items",
  ...COMBINATORS,
  "default",
  "deprecated",
  "$ref",
]);
/** Keywords that do not change which values are valid. */
const ANNOTATIONS = new Set<string>([
  "description",
  "title",
  "summary",
  "examples",
  "example",
  "$comment",
  "externalDocs",
  "readOnly",
  "writeOnly",
  "xml",
]);

const kebab = (keyword: string) => keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export function compareSchemas(ctx: WalkContext, site: Site, before: Node, after: Node): void {
  const visitKey = `${before.pointer}|${after.pointer}|${site.direction}`;
  if (ctx.visited.has(visitKey)) return;
  ctx.visited.add(visitKey);
  const at = after.pointer;
  const emit = (rule: string, extent: Extent, message: string, tolerantReader = false) =>
    report(ctx, site, rule, isBreaking(site.direction, extent, tolerantReader), message, at);

  if (typeof before.value === "boolean" || typeof after.value === "boolean") {
    compareBooleanSchemas(before.value, after.value, emit);
    return;
  }
  if (compareWrapping(ctx, site, before, after)) return;
  const b = asObject(before.value);
  const a = asObject(after.value);

  compareTypes(b, a, emit);
  compareAllowedValues(b, a, emit);
  for (const keyword of ["format", "pattern"] as const) {
    if (b[keyword] === a[keyword]) continue;
    const extent = { widened: b[keyword] !== undefined, narrowed: a[keyword] !== undefined };
    emit(`${keyword}-${extentName(extent)}`, extent, `${keyword} ${show(b[keyword])} became ${show(a[keyword])}`);
  }
  compareBounds(b, a, emit);
  if (Boolean(b.uniqueItems) !== Boolean(a.uniqueItems)) {
    const extent = { widened: Boolean(b.uniqueItems), narrowed: Boolean(a.uniqueItems) };
    emit(
      `unique-items-${extentName(extent)}`,
      extent,
      `uniqueItems ${show(b.uniqueItems ?? false)} became ${show(a.uniqueItems ?? false)}`,
    );
  }
  if (b.default !== undefined && a.default !== undefined && JSON.stringify(b.default) !== JSON.stringify(a.default)) {
    // A caller that leaves the value out now gets another behaviour; a reader is not affected by a default.
    report(
      ctx,
      site,
      "default-changed",
      site.direction === "sent",
      `default ${show(b.default)} became ${show(a.default)}`,
      at,
    );
  }
  if (!b.deprecated && a.deprecated) report(ctx, site, "schema-deprecated", false, "deprecated", at);

  compareProperties(ctx, site, before, after);
  compareAdditionalProperties(ctx, site, before, after, emit);
  const beforeItems = child(ctx.before, before, "items");
  const afterItems = child(ctx.after, after, "items");
  if (beforeItems && afterItems) compareSchemas(ctx, within(site, "[]"), beforeItems, afterItems);
  else if (beforeItems || afterItems) {
    const extent = { widened: Boolean(beforeItems), narrowed: Boolean(afterItems) };
    emit(`items-${extentName(extent)}`, extent, `items ${beforeItems ? "schema removed" : "schema added"}`);
  }
  for (const keyword of COMBINATORS) compareCombinator(ctx, site, before, after, keyword, emit);

  for (const keyword of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (UNDERSTOOD.has(keyword) || ANNOTATIONS.has(keyword) || keyword.startsWith("x-")) continue;
    if (JSON.stringify(b[keyword]) === JSON.stringify(a[keyword])) continue;
    emit(
      `${kebab(keyword)}-changed`,
      { widened: true, narrowed: true },
      `${keyword} ${show(b[keyword])} became ${show(a[keyword])}`,
    );
  }
}

type Emit = (rule: string, extent: Extent, message: string, tolerantReader?: boolean) => void;

/** `true` accepts everything, `false` nothing; at least one of the two schemas is such a boolean. */
function compareBooleanSchemas(b: unknown, a: unknown, emit: Emit): void {
  if (b === a) return;
  const accepts = (s: unknown) => s !== false; // `true` and any object schema accept something
  const open = (s: unknown) => s === true || (isObject(s) && Object.keys(s).length === 0);
  const extent = { widened: open(a) && !open(b), narrowed: !accepts(a) || (open(b) && !open(a)) };
  emit(`schema-${extentName(extent)}`, extent, `schema ${show(b)} became ${show(a)}`);
}

function typeSet(schema: JsonObject): string[] | undefined {
  if (schema.type === undefined) return undefined;
  const types = stringList(isArray(schema.type) ? schema.type : [schema.type]);
  if (schema.nullable === true && !types.includes("null")) types.push("null");
  return types;
}

function compareTypes(b: JsonObject, a: JsonObject, emit: Emit): void {
  const before = typeSet(b);
  const after = typeSet(a);
  // undefined accepts every type; `number` includes `integer`.
  const covers = (set: string[] | undefined, type: string) =>
    !set || set.includes(type) || (type === "integer" && set.includes("number"));
  const extent = {
    widened: before !== undefined && (after === undefined || after.some((t) => !covers(before, t))),
    narrowed: after !== undefined && (before === undefined || before.some((t) => !covers(after, t))),
  };
  if (extent.widened || extent.narrowed)
    emit(
      `type-${extentName(extent)}`,
      extent,
      `type ${before ? show(before) : "(any)"} became ${after ? show(after) : "(any)"}`,
    );
}

/** `const` and `enum` as one list of allowed values; undefined when any value is allowed. */
function allowedValues(schema: JsonObject): readonly unknown[] | undefined {
  if ("const" in schema) return [schema.const];
  return isArray(schema.enum) ? schema.enum : undefined;
}

function compareAllowedValues(b: JsonObject, a: JsonObject, emit: Emit): void {
  const before = allowedValues(b);
  const after = allowedValues(a);
  if (!before && !after) return;
  const keys = (values: readonly unknown[] | undefined) => new Set((values ?? []).map((v) => JSON.stringify(v)));
  const beforeKeys = keys(before);
  const afterKeys = keys(after);
  const added = before && after ? after.filter((v) => !beforeKeys.has(JSON.stringify(v))) : [];
  const removed = before && after ? before.filter((v) => !afterKeys.has(JSON.stringify(v))) : [];
  const extent = { widened: !after || added.length > 0, narrowed: !before || removed.length > 0 };
  if (!extent.widened && !extent.narrowed) return;
  const parts = !before
    ? [`restricted to ${show(after)}`]
    : !after
      ? [`no longer restricted to ${show(before)}`]
      : [
          ...(added.length > 0 ? [`values added: ${added.map(show).join(", ")}`] : []),
          ...(removed.length > 0 ? [`values removed: ${removed.map(show).join(", ")}`] : []),
        ];
  emit(`enum-${extentName(extent)}`, extent, parts.join("; "));
}

const isBound = (value: unknown): value is number | undefined => value === undefined || typeof value === "number";

function compareBounds(b: JsonObject, a: JsonObject, emit: Emit): void {
  for (const [keywords, lower] of [
    [LOWER_BOUNDS, true],
    [UPPER_BOUNDS, false],
  ] as const) {
    for (const keyword of keywords) {
      const before = b[keyword];
      const after = a[keyword];
      if (before === after) continue;
      if (!isBound(before) || !isBound(after)) {
        emit(
          `${kebab(keyword)}-changed`,
          { widened: true, narrowed: true },
          `${keyword} ${show(before)} became ${show(after)}`,
        ); // 3.0 boolean form
        continue;
      }
      // A bound that appears, or moves inwards, narrows; one that disappears, or moves outwards, widens.
      const tighter = after !== undefined && (before === undefined || (lower ? after > before : after < before));
      const extent = { widened: !tighter, narrowed: tighter };
      emit(`${kebab(keyword)}-${extentName(extent)}`, extent, `${keyword} ${show(before)} became ${show(after)}`);
    }
  }
  if (b.multipleOf !== a.multipleOf) {
    emit(
      "multiple-of-changed",
      { widened: true, narrowed: true },
      `multipleOf ${show(b.multipleOf)} became ${show(a.multipleOf)}`,
    );
  }
}

function compareProperties(ctx: WalkContext, site: Site, before: Node, after: Node): void {
  const beforeProps = asObject(field(before.value, "properties"));
  const afterProps = asObject(field(after.value, "properties"));
  const beforeRequired = new Set(stringList(field(before.value, "required")));
  const afterRequired = new Set(stringList(field(after.value, "required")));
  const names = new Set([...Object.keys(beforeProps), ...Object.keys(afterProps), ...beforeRequired, ...afterRequired]);
  const sent = site.direction === "sent";
  for (const name of names) {
    const where = within(site, `.${name}`);
    const inBefore = name in beforeProps;
    const inAfter = name in afterProps;
    if (inBefore && !inAfter) {
      // A writer that sends it is rejected (closed schema) or no longer documented; a reader loses it.
      report(
        ctx,
        where,
        "property-removed",
        true,
        `property \`${name}\` removed`,
        `${before.pointer}/properties/${escapeSegment(name)}`,
      );
      continue;
    }
    if (!inBefore && inAfter) {
      const required = afterRequired.has(name);
      const rule = required ? "required-property-added" : "property-added";
      report(
        ctx,
        where,
        rule,
        required && sent,
        `${required ? "required" : "optional"} property \`${name}\` added`,
        `${after.pointer}/properties/${escapeSegment(name)}`,
      );
      continue;
    }
    if (beforeRequired.has(name) !== afterRequired.has(name)) {
      const nowRequired = afterRequired.has(name);
      const rule = nowRequired ? "property-became-required" : "property-became-optional";
      // Required narrows what a writer may send; optional widens what a reader may get (the field may be missing).
      report(
        ctx,
        where,
        rule,
        nowRequired ? sent : !sent,
        `property \`${name}\` became ${nowRequired ? "required" : "optional"}`,
        after.pointer,
      );
    }
    if (inBefore && inAfter) {
      compareSchemas(
        ctx,
        where,
        existingChild(ctx.before, before, "properties", name),
        existingChild(ctx.after, after, "properties", name),
      );
    }
  }
}

function compareAdditionalProperties(ctx: WalkContext, site: Site, before: Node, after: Node, emit: Emit): void {
  const state = (value: unknown) =>
    value === undefined || value === true ? "open" : value === false ? "closed" : "schema";
  const b = state(field(before.value, "additionalProperties"));
  const a = state(field(after.value, "additionalProperties"));
  if (b === "schema" && a === "schema") {
    compareSchemas(
      ctx,
      within(site, ".*"),
      existingChild(ctx.before, before, "additionalProperties"),
      existingChild(ctx.after, after, "additionalProperties"),
    );
    return;
  }
  if (b === a) return;
  const rank = { closed: 0, schema: 1, open: 2 } as const;
  const extent = { widened: rank[a] > rank[b], narrowed: rank[a] < rank[b] };
  // Readers ignore properties they do not know (tolerant reader), so opening a response object is safe.
  emit(`additional-properties-${extentName(extent)}`, extent, `additionalProperties ${b} became ${a}`, true);
}

function compareCombinator(
  ctx: WalkContext,
  site: Site,
  before: Node,
  after: Node,
  keyword: (typeof COMBINATORS)[number],
  emit: Emit,
): void {
  const list = (node: Node) => {
    const value = field(node.value, keyword);
    return isArray(value) ? value : undefined;
  };
  const beforeList = list(before);
  const afterList = list(after);
  if (!beforeList && !afterList) return;
  // allOf: every branch must hold, so a new branch narrows. oneOf/anyOf: any branch may hold, so a new one widens.
  const branchAddedWidens = keyword !== "allOf";
  if (!beforeList || !afterList) {
    const extent = { widened: !afterList, narrowed: !beforeList };
    emit(`${kebab(keyword)}-${extentName(extent)}`, extent, `${keyword} ${beforeList ? "removed" : "added"}`);
    return;
  }
  const beforeBranches = beforeList.map((_, i) => existingChild(ctx.before, before, keyword, String(i)));
  const afterBranches = afterList.map((_, i) => existingChild(ctx.after, after, keyword, String(i)));
  // Pair branches that are the same component first, then the rest in order.
  const pairs: Array<[Node, Node]> = [];
  const unmatchedAfter = [...afterBranches];
  const unmatchedBefore: Node[] = [];
  for (const branch of beforeBranches) {
    const same = unmatchedAfter.findIndex(
      (other) => other.pointer === branch.pointer && branch.pointer.startsWith("/components/"),
    );
    if (same >= 0) pairs.push([branch, unmatchedAfter.splice(same, 1)[0]!]);
    else unmatchedBefore.push(branch);
  }
  while (unmatchedBefore.length > 0 && unmatchedAfter.length > 0)
    pairs.push([unmatchedBefore.shift()!, unmatchedAfter.shift()!]);
  for (const [b, a] of pairs) compareSchemas(ctx, within(site, `<${keyword} ${a.pointer.split("/").pop()}>`), b, a);
  for (const [branches, added] of [
    [unmatchedAfter, true],
    [unmatchedBefore, false],
  ] as const) {
    for (const branch of branches) {
      const widens = added === branchAddedWidens;
      emit(
        `${kebab(keyword)}-${widens ? "widened" : "narrowed"}`,
        { widened: widens, narrowed: !widens },
        `${keyword} branch ${added ? "added" : "removed"}: ${branchName(branch)}`,
      );
    }
  }
}

/** A branch by its component name, or its JSON when it is written inline. */
const branchName = (branch: Node) =>
  branch.pointer.startsWith("/components/schemas/") ? branch.pointer.split("/").pop() : show(branch.value);

/** The `anyOf`/`oneOf` of a schema that says nothing else (annotations aside), e.g. `anyOf: [<success envelope>, Error]`. */
function alternativesOnly(schema: unknown): "anyOf" | "oneOf" | undefined {
  const keywords = keysOf(schema).filter((keyword) => !ANNOTATIONS.has(keyword) && !keyword.startsWith("x-"));
  const [keyword] = keywords;
  return keywords.length === 1 && (keyword === "anyOf" || keyword === "oneOf") && isArray(field(schema, keyword))
    ? keyword
    : undefined;
}

/**
 * A schema that became one branch of an `anyOf`/`oneOf` that says nothing else (links and pay wrap each success body
 * as `anyOf: [<success envelope>, Error]`), or the reverse, is one change: the branches added around it (or removed).
 * The schema is then compared with its own branch, rather than every keyword of it being reported as gone.
 * Returns false when the pair is no such wrapping.
 */
function compareWrapping(ctx: WalkContext, site: Site, before: Node, after: Node): boolean {
  const hasAlternatives = (node: Node) =>
    field(node.value, "anyOf") !== undefined || field(node.value, "oneOf") !== undefined;
  const wrappedIn = hasAlternatives(before) ? undefined : alternativesOnly(after.value);
  const unwrappedFrom = hasAlternatives(after) ? undefined : alternativesOnly(before.value);
  const keyword = wrappedIn ?? unwrappedFrom;
  if (!keyword) return false;
  const [inner, wrapper, wrapperDoc] = wrappedIn ? [before, after, ctx.after] : [after, before, ctx.before];
  const branches = asArray(field(wrapper.value, keyword)).map((_, i) =>
    existingChild(wrapperDoc, wrapper, keyword, String(i)),
  );
  const own = branches.find(
    (branch) =>
      (branch.pointer === inner.pointer && inner.pointer.startsWith("/components/")) ||
      JSON.stringify(branch.value) === JSON.stringify(inner.value),
  );
  if (!own) return false;
  const others = branches.filter((branch) => branch !== own).map(branchName);
  if (others.length > 0) {
    // Any branch may hold, so the branches around the schema widen what is accepted (and removing them narrows it).
    const extent = { widened: Boolean(wrappedIn), narrowed: !wrappedIn };
    const message = `${wrappedIn ? "wrapped in" : "no longer wrapped in"} ${keyword} with ${others.join(", ")}`;
    report(
      ctx,
      site,
      `${kebab(keyword)}-${extentName(extent)}`,
      isBreaking(site.direction, extent),
      message,
      wrapper.pointer,
    );
  }
  if (wrappedIn) compareSchemas(ctx, within(site, `<${keyword} ${own.pointer.split("/").pop()}>`), before, own);
  else compareSchemas(ctx, site, own, after);
  return true;
}
