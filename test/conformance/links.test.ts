// Values from the deployment: the Link Objects of the specs are well-formed, the runner derives the resources of its
// stateful sequences from them, and they drive the runs: a link removed from the loaded contract leaves the step
// that needed it unable to run (fail closed), and without the category link a made-up category is refused.
import { afterEach, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import {
  evaluate,
  isRuntimeExpression,
  linkedResources,
  pointerValue,
  readLinks,
} from "../../conformance/contract/links.js";
import { PROFILES } from "../../conformance/apis.js";
import { operationModel } from "../../conformance/plan/cases.js";
import { startOracleCatalogServer } from "../../conformance/oracle/catalog.js";
import { startOracleLinksServer } from "../../conformance/oracle/links.js";
import { API_NAMES, loadContract } from "../../lib/contract/index.js";
import { operationOf } from "../../conformance/contract/lookup.js";
import { conformInProcess } from "../support/conform.js";

const C = FAULT_SERVER_CREDENTIALS;
let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const isRead = (api: (typeof API_NAMES)[number]) => (id: string) =>
  ["get", "head"].includes(operationOf(api, id).method) || id in PROFILES[api].readOnly;

describe("the Link Objects of the specs", () => {
  it.each(API_NAMES.map((api) => [api] as const))(
    "%s: every link names a real operation, its parameters and valid runtime expressions",
    (api) => {
      for (const link of readLinks(loadContract(api).document)) {
        const target = operationModel(operationOf(api, link.to));
        for (const parameter of link.parameters) {
          expect(
            target.parameters.some(
              (p) => p.name === parameter.name && (parameter.in === undefined || p.in === parameter.in),
            ),
            `${link.name}: ${parameter.name}`,
          ).toBe(true);
          expect(isRuntimeExpression(String(parameter.value)), `${link.name}: ${String(parameter.value)}`).toBe(true);
        }
        if (link.requestBody !== undefined) {
          expect(target.body, link.name).toBeDefined();
          for (const value of Object.values(link.requestBody as Record<string, unknown>))
            expect(isRuntimeExpression(String(value))).toBe(true);
        }
      }
    },
  );

  it("links.yaml says what the runner used to be told by hand: each resource's id, update, deletion and list", () => {
    const kinds = linkedResources(loadContract("links").document, isRead("links"));
    expect(kinds.map((k) => k.name)).toEqual(["domain", "campaign", "channel"]);
    expect(kinds[0]).toEqual({
      name: "domain",
      create: "addDomain",
      id: "/id",
      update: { operationId: "updateDomain", pathParameter: "id" },
      delete: { operationId: "deleteDomain", pathParameter: "id" },
      list: {
        operationId: "listDomains",
        items: "/data/domains",
        itemId: "/id",
        pageParameter: { in: "query", name: "page" },
      },
    });
    expect(kinds[2]).toMatchObject({
      read: { operationId: "listChannelItems", pathParameter: "id" },
      list: { items: "/data/channels" },
      undeletable: expect.stringMatching(/no operation to delete a channel/),
    });
  });

  it("evaluates runtime expressions on a request and its response", () => {
    const context = {
      request: {
        method: "post",
        url: "http://x/a",
        path: { id: 7 },
        query: { page: 2 },
        headers: { "X-Key": "k" },
        body: { name: "n" },
      },
      response: {
        status: 201,
        headers: { location: "/b/9" },
        body: { data: [{ parent_id: null }, { parent_id: "pcat_2", id: "pcat_3" }] },
      },
    };
    expect(evaluate("$response.body#/data/0/parent_id", context)).toBe("pcat_2"); // index 0: the first row that has one
    expect(evaluate("$response.body#/data/1/id", context)).toBe("pcat_3");
    expect(evaluate({ category: "$request.body#/name", fixed: 3 }, context)).toEqual({ category: "n", fixed: 3 });
    expect(evaluate("$request.path.id", context)).toBe(7);
    expect(evaluate("$request.header.x-key", context)).toBe("k");
    expect(evaluate("$response.header.Location", context)).toBe("/b/9");
    expect(evaluate("$statusCode", context)).toBe(201);
    expect(evaluate("page {$request.query.page} of {$method}", context)).toBe("page 2 of POST");
    expect(() => evaluate("$response.bodyx", context)).toThrow(/not a runtime expression/);
    expect(pointerValue({ "a/b": { "c~d": 1 } }, "/a~1b/c~0d")).toBe(1);
  });
});

const DELETE_LINK = {
  api: "links" as const,
  pointer: "/paths/~1api~1domain~1add/post/responses/200/links",
  key: "deleteTheNewDomain",
  value: undefined,
};
const CATEGORY_LINKS = ["createAProductInAListedCategory", "createAProductInAListedParentCategory"].map((key) => ({
  api: "catalog" as const,
  pointer: "/paths/~1admin~1seller-api~1categories/get/responses/200/links",
  key,
  value: undefined,
}));

describe("the links drive the runs", () => {
  it("links: with every link the domain is created, found, updated and deleted; without the deletion's link, deleteDomain cannot run and the run fails", async () => {
    const args = [
      "links",
      "--operation",
      "addDomain",
      "--allow-writes",
      "--max-examples",
      "2",
      "--seed",
      "3",
      "--rate-limit",
      "1000/s",
    ];
    const whole = await startOracleLinksServer({ token: C.LINKS_TOKEN, windowMs: 1000 });
    servers.push(whole);
    const ok = await conformInProcess([...args, "--base-url", whole.url], { ...C });
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.report.checks.find((c) => c.name === "use_after_free")).toMatchObject({
      operations: { updateDomain: { passed: 1 }, listDomains: { passed: 1 } },
    });
    expect(ok.report.resources.filter((r) => r.kind === "domain").every((r) => r.state === "deleted")).toBe(true);

    const cut = await startOracleLinksServer({ token: C.LINKS_TOKEN, windowMs: 1000 });
    servers.push(cut);
    const run = await conformInProcess([...args, "--base-url", cut.url, "--operation", "deleteDomain"], { ...C }, [
      DELETE_LINK,
    ]);
    expect(run.code).toBe(1);
    expect(run.report.checks.find((c) => c.name === "positive_data_acceptance")!.couldNotRun).toMatch(
      /deleteDomain cannot run: no Link Object/,
    );
    expect(run.report.skippedOperations).toContainEqual({
      operationId: "deleteDomain",
      reason: expect.stringMatching(/no Link Object/),
    });
    expect(run.report.resources.find((r) => r.kind === "domain" && r.state !== "deleted")?.note).toMatch(
      /no Link Object from addDomain/,
    );
  });

  it("catalog: the new product goes into a category read from the deployment; without the links the example's made-up one is refused", async () => {
    const args = [
      "catalog",
      "--operation",
      "createProduct",
      "--allow-writes",
      "--max-examples",
      "3",
      "--max-writes",
      "1",
      "--seed",
      "3",
    ];
    const server = await startOracleCatalogServer({ apiKey: C.CATALOG_API_KEY, readApiKey: C.CATALOG_READ_API_KEY });
    servers.push(server);
    const ok = await conformInProcess([...args, "--base-url", server.url], { ...C });
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.report.checks.find((c) => c.name === "positive_data_acceptance")!.operations.createProduct).toMatchObject(
      { failed: 0 },
    );
    expect(ok.report.resources.filter((r) => r.kind === "product").length).toBeGreaterThan(0);
    expect(ok.report.checks.find((c) => c.name === "created_values_echoed")).toMatchObject({ passed: 1, failed: 0 });

    const without = await conformInProcess([...args, "--base-url", server.url], { ...C }, CATEGORY_LINKS);
    expect(without.code).toBe(1);
    expect(without.report.failures.map((f) => f.check)).toContain("positive_data_acceptance");
    expect(JSON.stringify(without.report.failures)).toMatch(/unknown category pcat_8kq2m4x7/);
  });
});
