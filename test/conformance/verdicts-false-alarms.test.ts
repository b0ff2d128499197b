// False alarms of issue 47 that came from our own choices, each proven against an independent server written for the
// purpose (conformance/oracle/) that makes the choice the seed leaves open: a domain's unset redirects read back as
// null, a router that answers a method a path does not document, a gateway that takes a numeric string nonce. Each
// run passes; each counter-test shows the contract word that made it a failure before. Last, the page-2 step of
// list_parameters_honoured on a list that holds one row: rows of the run's own with writes, "not reached" without.
import { afterEach, describe, expect, it } from "vitest";
import type { ContractPatch } from "../../conformance/fault-servers/contract-patch.js";
import { CLOSED_RESPONSE_ASSUMPTION } from "../../conformance/contract/words.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startOracleLinksServer } from "../../conformance/oracle/links.js";
import { startOraclePayServer } from "../../conformance/oracle/pay.js";
import type { RunReport } from "../../conformance/report/report.js";
import { conformInProcess } from "../support/conform.js";

const env = { ...FAULT_SERVER_CREDENTIALS };
let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const failing = (report: RunReport) => report.failures.map((f) => `${f.check} on ${f.operationId}: ${f.message}`);

type OracleChoices = Omit<Parameters<typeof startOracleLinksServer>[0], "token" | "windowMs">;

/** `contracts conform links` with writes against a new independent links server that makes `choices`. */
async function conformOracle(choices: OracleChoices, more: string[], patches: ContractPatch[]) {
  const server = await startOracleLinksServer({ token: env.LINKS_TOKEN, windowMs: 1000, ...choices });
  servers.push(server);
  const args = ["links", "--base-url", server.url, "--seed", "5", "--max-examples", "4", "--rate-limit", "1000/s"];
  return { server, ...(await conformInProcess([...args, "--allow-writes", ...more], env, patches)) };
}

describe("a links server that lists a domain added without redirects with both as null", () => {
  // The seed makes both optional on add and never shows how an unset one reads back: absent, "" and null all keep it.
  const domainRuns = ["--operation", "addDomain", "--operation", "listDomains"];
  const nullRedirects = (report: RunReport) =>
    report.failures.filter((f) => f.check === "response_schema_conformance" && /redirect(root|404)/.test(f.message));

  it.each(["null", "absent", "empty"] as const)(
    "passes when an unset redirect reads back %s",
    async (unsetRedirect) => {
      const { code, report, stdout, server } = await conformOracle({ errors: "http", unsetRedirect }, domainRuns, []);
      expect(failing(report), stdout).toEqual([]);
      expect(report.warnings.filter((w) => w.assumption !== CLOSED_RESPONSE_ASSUMPTION)).toEqual([]);
      // The example without redirects was added and the list that shows it was judged.
      expect(server.log.filter((r) => r.method === "POST" && r.url === "/api/domain/add").length).toBeGreaterThan(0);
      expect(
        report.checks.find((c) => c.name === "response_schema_conformance")!.operations["listDomains"]!.passed,
      ).toBeGreaterThan(0);
      expect(code).toBe(0);
    },
  );

  it("would fail response_schema_conformance if the contract allowed only a string (the false alarm it was)", async () => {
    const stringOnly = ["redirectroot", "redirect404"].map((name): ContractPatch => ({
      api: "links",
      pointer: `/components/schemas/Domain/properties/${name}`,
      key: "type",
      value: "string",
    }));
    const { code, report } = await conformOracle({ errors: "http", unsetRedirect: "null" }, domainRuns, stringOnly);
    expect(nullRedirects(report).map((f) => f.operationId)).toContain("listDomains");
    expect(code).toBe(1);
  });
});

describe("a links server whose router answers a method a path does not document as the path's own", () => {
  it("passes unsupported_method: a PATCH of a list answered 200 is an observation, since no source promises a 405", async () => {
    const { code, report, stdout, server } = await conformOracle(
      { errors: "http", otherMethods: "as-the-path" },
      ["--operation", "listDomains", "--operation", "getAccount", "--operation", "addDomain"],
      [],
    );
    expect(failing(report), stdout).toEqual([]);
    expect(server.log.some((request) => request.method === "PATCH")).toBe(true);
    expect(report.checks.find((c) => c.name === "unsupported_method")!.passed).toBeGreaterThan(0);
    expect(report.observations.map((o) => o.detail)).toContainEqual(
      expect.stringMatching(/^PATCH \/api\/(domains|account) succeeded with status 200; no source promises/),
    );
    expect(code).toBe(0);
  });

  it("fails where the contract carries the provider's word that other methods are refused", async () => {
    const promised: ContractPatch = {
      api: "links",
      pointer: "",
      key: "x-undocumented-methods-refused",
      value: "Test fixture: the provider refuses every method its paths do not document.",
    };
    const { code, report } = await conformOracle(
      { errors: "http", otherMethods: "as-the-path" },
      ["--operation", "listDomains"],
      [promised],
    );
    expect(failing(report).join("\n")).toMatch(
      /unsupported_method on listDomains: PATCH \/api\/domains succeeded with status 200, though Test fixture/,
    );
    expect(code).toBe(1);
  });
});

describe("a pay gateway that takes any unique nonce, a numeric string included", () => {
  // The seed's promise on the nonce is uniqueness ("must be unique for each request"); that the gateway refuses a
  // nonce of another type is promised nowhere, so a string nonce accepted is an observation.
  const getBalance = (url: string) => [
    "pay",
    "--base-url",
    url,
    "--seed",
    "5",
    "--max-examples",
    "30",
    "--operation",
    "getBalance",
  ];
  const startLoose = async () => {
    const server = await startOraclePayServer({
      shopId: env.PAY_SHOP_ID,
      secret: env.PAY_SECRET,
      nonceValues: "any-unique",
    });
    servers.push(server);
    return server;
  };

  it("passes, with the accepted string nonce as an observation", async () => {
    const server = await startLoose();
    const { code, report, stdout } = await conformInProcess(getBalance(server.url), env, []);
    expect(failing(report), stdout).toEqual([]);
    expect(report.observations.map((o) => o.detail)).toContainEqual(
      expect.stringMatching(/^body \/nonce: wrong type \(string\): accepted with status 200/),
    );
    expect(report.checks.find((c) => c.name === "nonce_replay")!.passed).toBeGreaterThan(0);
    expect(code).toBe(0);
  });

  it("would fail negative_data_rejection if the uniqueness promise were read as a promise about the type", async () => {
    const server = await startLoose();
    const onType: ContractPatch = {
      api: "pay",
      pointer: "/components/schemas/Nonce",
      key: "x-provider-refuses",
      value:
        "Pay seed, Limits: 'nonce | must be unique for each request', so a request that reuses a nonce is refused.",
    };
    const { code, report } = await conformInProcess(getBalance(server.url), env, [onType]);
    expect(failing(report).join("\n")).toMatch(/negative_data_rejection on getBalance: .*body \/nonce: wrong type/);
    expect(code).toBe(1);
  });
});

describe("page 2 of a list that holds one row (list_parameters_honoured)", () => {
  it("with writes: adds a row of the run's own, asks page 2 with limit 1, and deletes the row", async () => {
    const { code, report, stdout, server } = await conformOracle(
      { errors: "http" },
      ["--operation", "listDomains"],
      [],
    );
    expect(failing(report), stdout).toEqual([]);
    expect(server.log.some((r) => r.url.includes("limit=1") && r.url.includes("page=2"))).toBe(true);
    expect(report.resources.filter((r) => r.kind === "domain").map((r) => r.state)).toContain("deleted");
    expect(report.resources.every((r) => r.state === "deleted")).toBe(true);
    expect(code).toBe(0);
  });

  it("read-only: says page 2 was not reached instead of passing it", async () => {
    const server = await startOracleLinksServer({ token: env.LINKS_TOKEN, windowMs: 1000, errors: "http" });
    servers.push(server);
    const args = ["links", "--base-url", server.url, "--seed", "5", "--max-examples", "4", "--rate-limit", "1000/s"];
    const { report } = await conformInProcess([...args, "--operation", "listOverlays"], env, []);
    expect(report.skippedOperations).toContainEqual({
      operationId: "listOverlays",
      reason: expect.stringMatching(/list_parameters_honoured: page 2 with limit=1 not reached/),
    });
    expect(server.log.some((r) => r.url.includes("page=2"))).toBe(false);
  });
});
