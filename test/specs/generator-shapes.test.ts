// Shapes that every generator reads (specs/README.md, "Shapes every generator reads"), checked on the bundles.
import { expect, it } from "vitest";
import { API_NAMES, loadContract } from "../../lib/contract/index.js";

// TypeScript's global types that are no value of globalThis (utility types and the lib's interfaces).
const TYPESCRIPT_GLOBALS = [
  "Partial",
  "Required",
  "Readonly",
  "Record",
  "Pick",
  "Omit",
  "Exclude",
  "Extract",
  "NonNullable",
  "Parameters",
  "ReturnType",
  "InstanceType",
  "Awaited",
  "PropertyKey",
  "PromiseLike",
  "ArrayLike",
  "Iterable",
  "Iterator",
  "RequestInit",
  "ResponseInit",
  "HeadersInit",
  "BodyInit",
];

/** Every schema object in a bundle (examples skipped: they are data), with its JSON pointer. */
function schemaNodes(node: unknown, pointer = "#"): Array<{ pointer: string; node: Record<string, unknown> }> {
  if (node === null || typeof node !== "object") return [];
  const here = Array.isArray(node) ? [] : [{ pointer, node: node as Record<string, unknown> }];
  return [
    ...here,
    ...Object.entries(node)
      .filter(([key]) => key !== "examples" && key !== "example")
      .flatMap(([key, value]) => schemaNodes(value, `${pointer}/${key}`)),
  ];
}

it("every const and enum has its type beside it (some generators ignore a const without one)", () => {
  const untyped = API_NAMES.flatMap((api) =>
    schemaNodes(loadContract(api).document)
      .filter(({ node }) => ("const" in node || "enum" in node) && !("type" in node))
      .map(({ pointer }) => `${api} ${pointer}`),
  );
  expect(untyped).toEqual([]);
});

it("every operation lists its success response first (Mockoon serves the first one)", () => {
  for (const api of API_NAMES)
    for (const op of loadContract(api).operations()) {
      const [first] = Object.keys(op.operation.responses ?? {});
      expect(first, `${api} ${op.operationId}`).toMatch(/^2\d\d$/);
    }
});

it("a oneOf whose branches a property picks has a discriminator with a mapping", () => {
  const contract = loadContract("identity");
  const tokenRequest = contract.document.components!.schemas!["TokenRequest"] as Record<string, unknown>;
  expect(tokenRequest["discriminator"]).toEqual({
    propertyName: "grant_type",
    mapping: {
      authorization_code: "#/components/schemas/AuthorizationCodeGrant",
      refresh_token: "#/components/schemas/RefreshTokenGrant",
    },
  });
  const undiscriminated = API_NAMES.flatMap((api) =>
    schemaNodes(loadContract(api).document)
      .filter(({ node }) => Array.isArray(node["oneOf"]) && !node["discriminator"])
      .filter(({ node }) =>
        (node["oneOf"] as unknown[]).every((branch) => {
          const resolved = loadContract(api).deref<{ properties?: Record<string, { const?: unknown }> }>(
            branch as never,
          );
          return Object.values(resolved.properties ?? {}).some((property) => "const" in property);
        }),
      )
      .map(({ pointer }) => `${api} ${pointer}`),
  );
  expect(undiscriminated).toEqual([]);
});

it("no schema is named after a JavaScript or TypeScript global", () => {
  const globals = new Set([...Object.getOwnPropertyNames(globalThis), ...TYPESCRIPT_GLOBALS]);
  expect(globals.has("Error")).toBe(true);
  const clashes = API_NAMES.flatMap((api) =>
    Object.keys(loadContract(api).document.components?.schemas ?? {})
      .filter((name) => globals.has(name))
      .map((name) => `${api}: ${name}`),
  );
  expect(clashes).toEqual([]);
});
