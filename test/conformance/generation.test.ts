// The request generator on every operation of the four contracts: random and boundary data always validate, every
// invalid case breaks the contract, the same seed gives the same cases, and fast-check shrinks a failing case.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PROFILES } from "../../conformance/apis.js";
import { boundaryCases, exampleCases, invalidCaseArbitrary, operationModel, validateCase, validCaseArbitrary } from "../../conformance/cases.js";
import { API_NAMES, listOperations } from "../../lib/openapi.js";

const credentials = { clientId: "demo-app", redirectUri: "http://127.0.0.1:5173/callback", shopId: "3561" };
const operations = API_NAMES.flatMap((api) => listOperations(api).filter((op) => !op.webhook).map((op) => [`${api} ${op.operationId}`, op] as const));

describe.each(operations)("%s", (_name, op) => {
  const model = operationModel(op);
  const profile = PROFILES[op.api];

  it("examples, boundary values and random data are valid; invalid data is not", () => {
    for (const c of [...exampleCases(model, profile, credentials), ...boundaryCases(model, profile, credentials, 12)]) expect(validateCase(model, c), c.label).toMatchObject({ valid: true });
    for (const c of fc.sample(validCaseArbitrary(model, profile, credentials), { seed: 1, numRuns: 40 })) expect(validateCase(model, c).reason).toBe("");
    const invalid = invalidCaseArbitrary(model, profile, credentials);
    if (invalid) for (const c of fc.sample(invalid, { seed: 1, numRuns: 40 })) expect(validateCase(model, c).valid, c.label).toBe(false);
  });

  it("the same seed gives the same cases", () => {
    const sample = (seed: number) => JSON.stringify(fc.sample(validCaseArbitrary(model, profile, credentials), { seed, numRuns: 5 }));
    expect(sample(9)).toBe(sample(9));
  });
});

it("shrinks a failing case to a minimal one", () => {
  const model = operationModel(listOperations("links").find((op) => op.operationId === "listDomains")!);
  // A "server" that refuses limit > 100: the smallest refused request has limit 101 and nothing else.
  const result = fc.check(fc.property(validCaseArbitrary(model, PROFILES.links, {}), (c) => !(typeof c.query.limit === "number" && c.query.limit > 100)), { seed: 3, numRuns: 200 });
  expect(result.failed).toBe(true);
  expect(result.counterexample![0]).toMatchObject({ query: { limit: 101 } });
  expect(Object.keys(result.counterexample![0].query)).toEqual(["limit"]);
});
