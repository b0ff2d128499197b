// The request generator on every operation of the four contracts, judged by an oracle it does not use: each
// mutation is checked by hand against the raw schema keyword it claims to break (not by the Ajv validators the
// generator filters with), every kind of mutation that can break a request and every declared limit and enum member
// must actually be produced, and the share of generated values the filters throw away is bounded (a converter
// drifting from the schemas would show there).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PROFILES } from "../../conformance/apis.js";
import {
  applyMutation,
  boundaryCases,
  exampleCases,
  invalidCaseArbitrary,
  operationModel,
  validateCase,
  validCaseArbitrary,
} from "../../conformance/plan/cases.js";
import { type RequestCase } from "../../conformance/model/cases.js";
import { MALFORMED_JSON, type Mutation, operationMutations, REMOVE } from "../../conformance/plan/mutations.js";
import { jsonType, unfilteredArbitrary } from "../../conformance/plan/schema-arbitraries.js";
import { API_NAMES, type ApiName, escapeSegment as pointerSegment, loadContract } from "../../lib/contract/index.js";
import { operationsOf } from "../../conformance/contract/lookup.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { startIdentityServer } from "../../conformance/fault-servers/identity.js";
import { conformInProcess } from "../support/conform.js";

const credentials = { clientId: "demo-app", redirectUri: "http://127.0.0.1:5173/callback", shopId: "3561" };
const operations = API_NAMES.flatMap((api) =>
  operationsOf(api)
    .filter((op) => !op.webhook)
    .map((op) => [`${api} ${op.operationId}`, op] as const),
);

type Schema = Record<string, any>;

/** The bundle's node at `pointer`, read as a schema. */
const schemaNode = (api: ApiName, pointer: string): Schema => loadContract(api).resolve(pointer) as Schema;

/** The schema a mutation's location points at, read from the bundle by hand. */
function schemaAt(model: ReturnType<typeof operationModel>, mutation: Mutation): Schema | undefined {
  const api = model.op.api;
  const location = mutation.location;
  if (location.in !== "body") {
    const parameter = model.parameters.find((p) => p.name === location.name && p.in === location.in);
    return parameter ? schemaNode(api, `${parameter.pointer}/schema`) : undefined;
  }
  let pointer = model.body!.pointer;
  for (const key of location.path) {
    const node = schemaNode(api, pointer);
    if (node.properties && key in node.properties) pointer = `${pointer}/properties/${pointerSegment(key)}`;
    else if (node.items && /^\d+$/.test(key)) pointer = `${pointer}/items`;
    else return node; // an undeclared property: the object itself
  }
  return schemaNode(api, pointer);
}

/** The mutated value as a server reads it (text parameters and form fields are strings). */
function valueIn(c: RequestCase, mutation: Mutation): { present: boolean; value: unknown } {
  const location = mutation.location;
  if (location.in !== "body") {
    const target = location.in === "path" ? c.path : location.in === "query" ? c.query : c.headers;
    return { present: location.name in target, value: target[location.name] };
  }
  let node: any = c.body;
  for (const key of location.path) {
    if (node === null || typeof node !== "object" || !(key in node)) return { present: false, value: undefined };
    node = node[key];
  }
  return { present: c.body !== undefined || c.rawBody !== undefined, value: location.path.length ? node : c.body };
}

/** Whether the case breaks the keyword the mutation names, decided from the raw schema alone. */
function breaksWhatItSays(model: ReturnType<typeof operationModel>, mutation: Mutation, c: RequestCase): boolean {
  const d = mutation.description;
  if (mutation.value === MALFORMED_JSON)
    return (() => {
      try {
        JSON.parse(c.rawBody!);
        return false;
      } catch {
        return true;
      }
    })();
  if (d.endsWith("required but missing"))
    return mutation.location.in === "body" && mutation.location.path.length === 0
      ? c.noBody === true
      : !valueIn(c, mutation).present;
  const schema = schemaAt(model, mutation);
  const { value } = valueIn(c, mutation);
  if (!schema) return false;
  const text = (v: unknown) => String(v);
  const number = (v: unknown) => Number(v);
  let match: RegExpMatchArray | null;
  if (d.includes("undeclared property in a closed object"))
    return (
      schema.additionalProperties === false &&
      mutation.location.in === "body" &&
      !(mutation.location.path.at(-1)! in (schema.properties ?? {}))
    );
  if ((match = d.match(/below the minimum (-?[\d.]+)/))) return number(value) < Number(match[1]);
  if ((match = d.match(/above the maximum (-?[\d.]+)/))) return number(value) > Number(match[1]);
  if ((match = d.match(/not above the exclusive minimum (-?[\d.]+)/))) return number(value) <= Number(match[1]);
  if ((match = d.match(/not below the exclusive maximum (-?[\d.]+)/))) return number(value) >= Number(match[1]);
  if ((match = d.match(/shorter than minLength (\d+)/))) return text(value).length < Number(match[1]);
  if ((match = d.match(/longer than maxLength (\d+)/))) return text(value).length > Number(match[1]);
  if (d.includes("does not match the pattern")) return !new RegExp(schema.pattern, "u").test(text(value));
  if (d.includes("not one of")) return !schema.enum.some((member: unknown) => text(member) === text(value));
  if (d.includes("not the constant")) return text(schema.const) !== text(value);
  if (d.includes("fewer than minItems")) return Array.isArray(value) && value.length < schema.minItems;
  if (/not a valid (\S+)$/.test(d))
    return (
      typeof value === "string" &&
      ["not a uri", "not a url", "not-an-email", "not-a-uuid", "yesterday", "31/12/2024"].includes(value)
    );
  if (/wrong type \((.+)\)$/.test(d)) {
    const declared: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    const textual =
      typeof value === "string" &&
      (mutation.location.in !== "body" || model.body?.mediaType === "application/x-www-form-urlencoded");
    if (textual)
      return (
        !declared.includes("string") &&
        (Number.isNaN(Number(value)) || !Number.isInteger(Number(value)) || value === "maybe")
      );
    const actual = jsonType(value);
    return !declared.includes(actual) && !(actual === "integer" && declared.includes("number"));
  }
  throw new Error(`no oracle for the mutation "${d}"`);
}

describe.each(operations)("%s", (_name, op) => {
  const model = operationModel(op);
  const profile = PROFILES[op.api];
  const [example] = exampleCases(model, profile, credentials);
  const mutations = operationMutations(op.api, op.pointer);

  it("every mutation applicable to the first example is produced and breaks exactly what it names", () => {
    if (!example) return;
    for (const mutation of mutations) {
      const mutated = applyMutation(example, mutation);
      if (!mutated) continue; // names a place the example does not have (an optional field it leaves out)
      expect(
        breaksWhatItSays(model, mutation, mutated),
        `${mutation.description}: ${JSON.stringify(valueIn(mutated, mutation).value)}`,
      ).toBe(true);
    }
  });

  it("random invalid data covers the mutation kinds, and the filter throws away a bounded share", () => {
    const invalid = invalidCaseArbitrary(model, profile, credentials);
    if (!invalid) return;
    const kinds = (descriptions: string[]) =>
      new Set(
        descriptions.map((d) =>
          d
            .replace(/^.*?: /, "")
            .replace(/ [^ ]*\d[^ ]*$/, "")
            .replace(/\(.*\)$/, "")
            .trim(),
        ),
      );
    const sampled = fc.sample(invalid, { seed: 3, numRuns: 300 }).filter((c) => c !== undefined);
    // Kinds whose place exists in valid requests (the identity profile removes what cannot be generated, such as
    // id_token_hint, so mutations of it never apply); the malformed and missing body are sent systematically.
    const bases = fc.sample(validCaseArbitrary(model, profile, credentials), { seed: 4, numRuns: 60 });
    // An empty query value counts as absent (RFC 6749 §3.1), so "shorter than minLength 1" of an optional query
    // parameter is no violation: such kinds cannot be produced as invalid data and are not expected.
    const applicable = mutations.filter((m) =>
      bases.some((base) => {
        const mutated = applyMutation(base, m);
        return mutated !== undefined && !validateCase(model, mutated).valid;
      }),
    );
    const expected = kinds(
      applicable.map((m) => m.description).filter((d) => !/malformed JSON|body: required but missing/.test(d)),
    );
    const produced = kinds(sampled.map((c) => c.label));
    for (const kind of expected) expect(produced.has(kind), `never produced: ${kind}`).toBe(true);
    // Of the (valid case, mutation) pairs the arbitrary draws, at most 60% may be thrown away as still valid or not
    // applicable; more would mean mutations that miss their schemas.
    const pairs = fc.sample(
      fc.tuple(validCaseArbitrary(model, profile, credentials), fc.integer({ min: 0, max: mutations.length - 1 })),
      { seed: 5, numRuns: 200 },
    );
    const kept = pairs
      .map(([base, index]) => applyMutation(base, mutations[index]!))
      .filter((c) => c !== undefined && !validateCase(model, c).valid).length;
    expect(kept / pairs.length, `kept ${kept} of ${pairs.length}`).toBeGreaterThanOrEqual(0.4);
  });

  it("boundary values reach every limit and enum member the schemas declare", () => {
    if (!example) return;
    const cases = boundaryCases(model, profile, credentials, 500);
    for (const parameter of model.parameters) {
      const schema = schemaNode(op.api, `${parameter.pointer}/schema`);
      // Every boundary case, and the example (a boundary equal to it is the same request, sent once).
      const values = [...cases, example].map(
        (c) => (parameter.in === "path" ? c.path : parameter.in === "query" ? c.query : c.headers)[parameter.name],
      );
      if (profile.bind.length && ["client_id", "redirect_uri", "shop_id", "Idempotency-Key"].includes(parameter.name))
        continue; // filled from the credentials
      if (typeof schema.minimum === "number") expect(values, `${parameter.name} minimum`).toContain(schema.minimum);
      if (typeof schema.maximum === "number") expect(values, `${parameter.name} maximum`).toContain(schema.maximum);
      for (const member of schema.enum ?? []) expect(values, `${parameter.name} enum ${member}`).toContain(member);
    }
  });

  it("the converter's values mostly satisfy the schema before the filter", () => {
    const pointers = [
      ...model.parameters.map((p) => `${p.pointer}/schema`),
      ...(model.body ? [model.body.pointer] : []),
    ];
    for (const pointer of pointers) {
      const validate = loadContract(op.api).validator(pointer);
      const values = fc.sample(unfilteredArbitrary(op.api, pointer), { seed: 7, numRuns: 100 });
      const accepted = values.filter((v) => validate(v)).length;
      expect(accepted, `${pointer}: ${accepted} of 100 accepted`).toBeGreaterThanOrEqual(50);
    }
  });

  it("the same seed gives the same cases", () => {
    const sample = (seed: number) =>
      JSON.stringify(fc.sample(validCaseArbitrary(model, profile, credentials), { seed, numRuns: 5 }));
    expect(sample(9)).toBe(sample(9));
  });
});

it("the oracle is not blind: a mutation that breaks nothing is told apart", () => {
  const model = operationModel(operationsOf("links").find((op) => op.operationId === "listDomains")!);
  const [example] = exampleCases(model, PROFILES.links, {});
  const fake: Mutation = {
    description: "query parameter limit: below the minimum 1",
    location: { in: "query", name: "limit" },
    value: 5,
  };
  expect(breaksWhatItSays(model, fake, applyMutation(example!, fake)!)).toBe(false);
  expect(REMOVE).toBeTypeOf("symbol");
});

it("shrinks a failing case to a minimal one", () => {
  const model = operationModel(operationsOf("links").find((op) => op.operationId === "listDomains")!);
  // A "server" that refuses limit > 100: the smallest refused request has limit 101 and nothing else.
  const result = fc.check(
    fc.property(
      validCaseArbitrary(model, PROFILES.links, {}),
      (c) => !(typeof c.query.limit === "number" && c.query.limit > 100),
    ),
    { seed: 3, numRuns: 200 },
  );
  expect(result.failed).toBe(true);
  expect(result.counterexample![0]).toMatchObject({ query: { limit: 101 } });
  expect(Object.keys(result.counterexample![0].query)).toEqual(["limit"]);
});

it("a run ends when no mutation can make a request invalid (an empty form field counts as absent)", async () => {
  // minLength 1 on an optional form field is the only mutation; "access_token=" is no violation, so every invalid
  // case drawn is skipped. A filter in its place generated forever, and the run never ended.
  const patch = {
    api: "identity" as const,
    pointer: "/components/schemas/UserInfoRequest/properties/access_token",
    key: "minLength",
    value: 1,
  };
  const server = await startIdentityServer();
  try {
    const { code, report, stdout } = await conformInProcess(
      ["identity", "--base-url", server.url, "--operation", "getUserInfoByPost", "--seed", "7"],
      { ...FAULT_SERVER_CREDENTIALS },
      [patch],
    );
    expect(code, stdout).toBe(0);
    expect(report.requests).toBeGreaterThan(0);
  } finally {
    await server.close();
  }
});

it("random valid amounts keep to x-fraction-digits (catalog's request price: at most two decimals, not negative)", () => {
  const pointer = "/components/schemas/PriceCreate/properties/amount";
  const amounts = fc.sample(unfilteredArbitrary("catalog", pointer), { seed: 11, numRuns: 500 }) as number[];
  const validate = loadContract("catalog").validator(pointer);
  for (const amount of amounts) {
    expect(validate(amount), String(amount)).toBe(true);
    expect(String(amount), "at most two decimals as written").toMatch(/^\d+(\.\d{1,2})?$/);
  }
  expect(new Set(amounts).size, "still random").toBeGreaterThan(250);
});
