// The planner on its own (conformance/plan/): every (operation, kind of case, check) is reached once before any is
// reached twice, ties go by priority, and a budget too small for the plan leaves the rest not reached.
import { describe, expect, it } from "vitest";
import { buildPlan, type OperationFacts, type StepFacts } from "../../conformance/plan/build.js";
import { parseDuration, resolveBudget } from "../../conformance/plan/budget.js";
import { coverageKey, PRIORITY, type PlanItem } from "../../conformance/model/plan.js";
import { coverageFirst, Planner } from "../../conformance/plan/planner.js";
import type { CheckName } from "../../conformance/model/check-registry.js";

const RESPONSE: CheckName[] = [
  "not_a_server_error",
  "negative_data_rejection",
  "positive_data_acceptance",
  "ignored_auth",
];
const settings = { maxExamples: 6, checks: new Set<CheckName>([...RESPONSE, "use_after_free"]) };

const operation = (operationId: string, over: Partial<OperationFacts> = {}): OperationFacts => ({
  operationId,
  examples: 2,
  boundaries: 3,
  mutations: ["wrong type", "wrong type", "below the minimum"],
  invalidData: true,
  secured: true,
  writes: "nothing",
  ...over,
});

const sequence: StepFacts = {
  step: { type: "step", step: "sequence", resource: "domain" },
  operationId: "addDomain",
  checks: ["use_after_free"],
  cost: 6,
  writes: "deletable",
  priority: PRIORITY.sequence,
};

const plan = () =>
  buildPlan(
    [operation("getAccount", { mutations: [], boundaries: 0, invalidData: false }), operation("listDomains")],
    [sequence],
    settings,
  );

const keysOf = (item: PlanItem) => item.checks.map((check) => coverageKey(item, check));

describe("the planner", () => {
  it("reaches every (operation, kind of case, check) once before it reaches any twice", () => {
    const ordered = coverageFirst(plan());
    const allKeys = new Set(ordered.flatMap(keysOf));
    const seen = new Map<string, number>();
    let firstRepeat = -1;
    ordered.forEach((item, index) => {
      for (const key of keysOf(item)) {
        const count = (seen.get(key) ?? 0) + 1;
        seen.set(key, count);
        if (count === 2 && firstRepeat === -1) firstRepeat = index;
      }
    });
    expect(firstRepeat).toBeGreaterThan(0);
    // Every key had been reached once before the first item that reaches a key a second time.
    const before = new Set(ordered.slice(0, firstRepeat).flatMap(keysOf));
    expect(before).toEqual(allKeys);
    // Every operation and every check is among them.
    expect(new Set(ordered.slice(0, firstRepeat).map((i) => i.operationId))).toEqual(
      new Set(["getAccount", "listDomains", "addDomain"]),
    );
    expect(new Set(ordered.slice(0, firstRepeat).flatMap((i) => i.checks))).toEqual(settings.checks);
  });

  it("breaks ties by priority: examples, boundaries, the sequence, invalid data, credentials, random data", () => {
    const firstRound = coverageFirst(plan()).slice(0, 12);
    expect(firstRound.map((i) => `${i.operationId} ${i.kind}`)).toEqual([
      "getAccount example",
      "listDomains example",
      "listDomains boundary",
      "addDomain sequence",
      "listDomains mutation: wrong type",
      "listDomains mutation: below the minimum",
      "getAccount no credentials",
      "getAccount wrong credentials",
      "listDomains no credentials",
      "listDomains wrong credentials",
      "getAccount random data",
      "listDomains random data",
    ]);
  });

  it("puts invalid data first on an operation whose creations cannot be deleted", () => {
    const [first] = coverageFirst(buildPlan([operation("createOrder", { writes: "undeletable" })], [], settings));
    expect(first!.kind).toBe("mutation: wrong type");
  });

  it("keeps the plan's depth (--max-examples) when nothing limits it", () => {
    const items = plan().filter((i) => i.operationId === "listDomains");
    const valid = items.filter((i) => i.expect === "accept");
    const invalid = items.filter((i) => i.expect === "refuse");
    expect(valid).toHaveLength(settings.maxExamples);
    expect(invalid).toHaveLength(settings.maxExamples);
    expect(items.filter((i) => i.expect === "refuse credentials")).toHaveLength(2);
  });

  it("leaves what a small budget cannot pay for as not reached, and passes over an item too large for it", () => {
    let left = 7;
    const planner = new Planner(plan(), { requestsLeft: () => left, timeAllows: () => true });
    const given: PlanItem[] = [];
    for (let item = planner.next(); item; item = planner.next()) {
      given.push(item);
      left -= item.cost;
    }
    expect(given.reduce((n, item) => n + item.cost, 0)).toBeLessThanOrEqual(7);
    const notReached = planner.notReached();
    expect(given.length + notReached.length).toBe(plan().length);
    // The sequence (6 requests) did not fit after the examples and the boundary; single requests went on.
    expect(notReached.some((item) => item.kind === "sequence")).toBe(true);
    expect(given.map((i) => i.kind)).toContain("boundary");
  });

  it("stops giving items once the time budget is spent", () => {
    const planner = new Planner(plan(), { requestsLeft: () => undefined, timeAllows: () => false });
    expect(planner.next()).toBeUndefined();
    expect(planner.notReached()).toHaveLength(plan().length);
  });
});

describe("the budget", () => {
  it("defaults to two minutes of a declared cap read-only and three with writes; none without a cap", () => {
    const links = { limit: 30, windowSeconds: 60 };
    expect(resolveBudget({ allowWrites: false }, links)).toEqual({ maxRequests: 60, isDefault: true });
    expect(resolveBudget({ allowWrites: true }, links)).toEqual({ maxRequests: 90, isDefault: true });
    expect(resolveBudget({ allowWrites: true }, undefined)).toEqual({ isDefault: false });
    // Shards run at once against the same cap: they share the whole run's default.
    expect(resolveBudget({ allowWrites: true, shard: { count: 3 } }, links)).toEqual({
      maxRequests: 30,
      isDefault: true,
    });
    expect(resolveBudget({ allowWrites: false, maxRequests: Infinity }, links)).toEqual({ isDefault: false });
    expect(resolveBudget({ allowWrites: false, maxDurationMs: 30_000 }, links)).toEqual({
      maxDurationMs: 30_000,
      isDefault: false,
    });
  });

  it("reads durations as a CI job writes them", () => {
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("2m")).toBe(120_000);
    expect(parseDuration("1m30s")).toBe(90_000);
    expect(parseDuration("45")).toBe(45_000);
    expect(parseDuration("soon")).toBeUndefined();
    expect(parseDuration("")).toBeUndefined();
  });
});
