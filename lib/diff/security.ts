// Security: the requirements of each operation (who may call it) and the security schemes they name.
import { type Document, escapeSegment } from "../contract/index.js";
import { type ChangeCollector } from "./changes.js";
import { asObject, field, isArray, isObject, keysOf, stringList } from "./json.js";
import { resolve, type Node, type WalkContext } from "./walk.js";

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

export function effectiveSecurity(doc: Document, op: Node): Requirement[] {
  const requirements = requirementsOf(field(op.value, "security") ?? doc.security);
  return requirements.length === 0 ? [{}] : requirements; // `[]` (or none) means no credentials
}

function describeRequirement(requirement: Requirement): string {
  const parts = Object.entries(requirement).map(([scheme, scopes]) =>
    scopes.length > 0 ? `${scheme} (${scopes.join(" ")})` : scheme,
  );
  return parts.length > 0 ? parts.join(" + ") : "no credentials";
}

/** Alternative requirements, any of which lets a caller in: `bearer (orders:read) or apiKey`. */
function describeAlternatives(requirements: Requirement[]): string {
  return requirements.map(describeRequirement).join(" or ");
}

/** True when credentials that meet `held` also meet `needed`: the same schemes or fewer, the same scopes or fewer. */
function satisfies(held: Requirement, needed: Requirement): boolean {
  return Object.entries(needed).every(
    ([scheme, scopes]) => held[scheme] !== undefined && scopes.every((s) => held[scheme]!.includes(s)),
  );
}

export function compareSecurity(
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
        `security ${describeAlternatives(before)} became ${describeAlternatives(after)}`,
      );
    }
    return;
  }
  for (const held of before) {
    if (!after.some((needed) => satisfies(held, needed))) {
      change(
        "security-narrowed",
        true,
        `callers with ${describeRequirement(held)} are no longer accepted (now ${describeAlternatives(after)})`,
      );
    }
  }
  for (const held of after) {
    if (!before.some((needed) => satisfies(held, needed)))
      change("security-widened", false, `callers with ${describeRequirement(held)} are now accepted`);
  }
}

export function compareSecuritySchemes(collector: ChangeCollector, before: Document, after: Document): void {
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
