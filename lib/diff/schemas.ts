// Direction-aware comparison of two JSON Schemas (OpenAPI 3.1 / 2020-12, with 3.0's `nullable`). Every
// constraint is read as "which values are accepted": a change that accepts more widens, one that accepts less
// narrows, and isBreaking() decides from who writes the data whether that breaks the user.
import { escapeSegment } from "../contract/index.js";
import { type Extent, extentName, isBreaking } from "./changes.js";
import { asArray, asObject, field, isArray, keysOf, stringList } from "./json.js";
import {
  compareAllowedValues,
  compareBooleanSchemas,
  compareBounds,
  compareTypes,
  type Emit,
  kebab,
  LOWER_BOUNDS,
  UPPER_BOUNDS,
} from "./schema-constraints.js";
import { existingChild, child, report, show, type Node, type Site, type WalkContext, within } from "./walk.js";

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

/**
 * The `anyOf`/`oneOf` of a schema that says nothing else (annotations aside),
 * e.g. `anyOf: [<success envelope>, Error]`.
 */
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
