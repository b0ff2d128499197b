// Verdicts that follow the contract's own words, proven against an independent links server written from the seed
// (conformance/oracle/links.ts) on small, explicit additions to the loaded contract: the error envelope makes a
// refusal whatever the HTTP status, x-assumption turns a broken constraint into a warning (a failure under --strict),
// and only x-provider-refuses makes an accepted invalid request a failure.
import { afterEach, describe, expect, it } from "vitest";
import {
  type ContractPatch,
  EMPTY_REDIRECTS_ASSUMED,
  ERROR_ENVELOPES,
  REDIRECTS_ARE_URLS,
} from "../../conformance/fault-servers/contract-patch.js";
import { CLOSED_RESPONSE_ASSUMPTION } from "../../conformance/contract/words.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startOracleLinksServer } from "../../conformance/oracle/links.js";
import { startOraclePayServer } from "../../conformance/oracle/pay.js";
import type { RunReport } from "../../conformance/report/report.js";
import { loadContract } from "../../lib/contract/index.js";
import { conformInProcess } from "../support/conform.js";

const env = { ...FAULT_SERVER_CREDENTIALS };
let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

// Every node on the way from listDomains to the redirect fields, so that "no assumption there" holds whatever
// assumptions the specs carry themselves.
const NO_REDIRECT_ASSUMPTION: ContractPatch[] = [
  "/paths/~1api~1domains/get",
  "/paths/~1api~1domains/get/responses/200",
  "/paths/~1api~1domains/get/responses/200/content/application~1json",
  "/paths/~1api~1domains/get/responses/200/content/application~1json/schema",
  "/components/schemas/DomainListResponse",
  "/components/schemas/DomainListResponse/properties/data",
  "/components/schemas/DomainPage",
  "/components/schemas/DomainPage/properties/domains",
  "/components/schemas/DomainPage/properties/domains/items",
  "/components/schemas/Domain",
  "/components/schemas/Domain/properties/redirectroot",
  "/components/schemas/Domain/properties/redirect404",
].map((pointer): ContractPatch => ({ api: "links", pointer, key: "x-assumption", value: undefined }));

const failing = (report: RunReport) => report.failures.map((f) => `${f.check} on ${f.operationId}: ${f.message}`);

const args = (url: string, ...more: string[]) => [
  "links",
  "--base-url",
  url,
  "--seed",
  "5",
  "--max-examples",
  "4",
  "--rate-limit",
  "1000/s",
  "--allow-writes",
  ...more,
];

/** How the independent links server answers where the seed leaves the choice open (all but its token and window). */
type OracleChoices = Omit<Parameters<typeof startOracleLinksServer>[0], "token" | "windowMs">;

/**
 * `contracts conform links` (`args` and `more`) against a new independent links server that makes `choices`, with
 * `patches` made to the loaded contract; the server is returned too, for the requests it logged.
 */
async function conformOracle(choices: OracleChoices, more: string[], patches: ContractPatch[]) {
  const server = await startOracleLinksServer({ token: env.LINKS_TOKEN, windowMs: 1000, ...choices });
  servers.push(server);
  return { server, ...(await conformInProcess(args(server.url, ...more), env, patches)) };
}

describe("an independent, seed-conforming links server", () => {
  it.each(["http", "always-200"] as const)(
    "passes with errors answered %s: extra request fields and a missing campaign body are observations, empty redirects and extra response fields warnings",
    async (errors) => {
      const { code, report, stdout, stderr } = await conformOracle(
        { errors },
        [],
        [...ERROR_ENVELOPES, ...EMPTY_REDIRECTS_ASSUMED],
      );
      expect(failing(report), `${stdout}\n${stderr}`).toEqual([]);
      expect(code).toBe(0);
      // Every check that applies ran, ignored_auth and the stateful ones included.
      for (const name of [
        "ignored_auth",
        "negative_data_rejection",
        "positive_data_acceptance",
        "use_after_free",
        "ensure_resource_availability",
        "response_schema_conformance",
        "list_parameters_honoured",
        "update_visible_on_read",
      ]) {
        expect(report.checks.find((c) => c.name === name)!.passed, name).toBeGreaterThan(0);
      }
      expect(report.warnings.map((w) => w.assumption)).toContain(
        "The seed calls it a URL but never says an unset redirect is not read back empty.",
      );
      // The account's `language` and the errors' `code`, which the seed does not show, break our closed schemas only.
      expect(
        report.warnings.filter((w) => w.assumption === CLOSED_RESPONSE_ASSUMPTION).map((w) => w.operationId),
      ).toContain("getAccount");
      expect(stdout).toMatch(/Warnings \(a constraint marked x-assumption was broken/);
      // A refusal answered with HTTP 200 and the envelope created nothing: no resource without an id is listed.
      expect(report.resources.filter((r) => r.id === undefined)).toEqual([]);
      // The run made its domains unique: no 409 for the boundary cases that would otherwise add the same domain.
      expect(report.resources.filter((r) => r.kind === "domain").length).toBeGreaterThan(1);
    },
  );

  it("a missing campaign body and an unknown channel field, accepted, are observations: the seed promises no refusal", async () => {
    // The body of campaign add stays required here (a constraint of ours the seed does not state), whatever the spec
    // says.
    const bodyRequired: ContractPatch = {
      api: "links",
      pointer: "/paths/~1api~1campaign~1add/post/requestBody",
      key: "required",
      value: true,
    };
    // Channels cannot be deleted, and --max-writes counts what a lenient server creates from invalid data too.
    const { code, report } = await conformOracle(
      { errors: "http" },
      ["--operation", "addCampaign", "--operation", "addChannel", "--max-examples", "40", "--max-writes", "80"],
      [...ERROR_ENVELOPES, ...EMPTY_REDIRECTS_ASSUMED, bodyRequired],
    );
    const accepted = report.observations.filter((o) => o.kind === "accepted-invalid");
    const seen = (operationId: string, detail: string) =>
      accepted.some((o) => o.operations.includes(operationId) && o.detail.startsWith(detail));
    expect(seen("addCampaign", "body: required but missing: accepted")).toBe(true);
    expect(seen("addChannel", "body (root): undeclared property in a closed object: accepted")).toBe(true);
    expect(report.checks.find((c) => c.name === "negative_data_rejection")).toMatchObject({ failed: 0 });
    expect(code).toBe(0);
  });

  it("without the error envelope in the contract, HTTP 200 errors are not refusals and ignored_auth fails", async () => {
    const { code, report } = await conformOracle(
      { errors: "always-200" },
      ["--operation", "getAccount"],
      [{ api: "links", pointer: "", key: "x-error-envelope", value: undefined }],
    );
    expect(report.failures.map((f) => f.check)).toContain("ignored_auth");
    expect(code).toBe(1);
  });

  it("without the x-assumption, the empty redirects fail response_schema_conformance", async () => {
    const { code, report } = await conformOracle(
      { errors: "http" },
      ["--operation", "addDomain"],
      [...ERROR_ENVELOPES, ...REDIRECTS_ARE_URLS, ...NO_REDIRECT_ASSUMPTION],
    );
    expect(failing(report).join("\n")).toMatch(
      /response_schema_conformance on listDomains: .*redirectroot must match format "uri"/,
    );
    expect(report.warnings.filter((w) => w.assumption !== CLOSED_RESPONSE_ASSUMPTION)).toEqual([]);
    expect(code).toBe(1);
  });

  it("--strict turns the broken x-assumption into a failure that names it", async () => {
    const { code, report } = await conformOracle(
      { errors: "http" },
      ["--operation", "addDomain", "--strict"],
      [...ERROR_ENVELOPES, ...EMPTY_REDIRECTS_ASSUMED],
    );
    expect(failing(report).join("\n")).toMatch(
      /response_schema_conformance on listDomains: .*x-assumption, failing under --strict: The seed calls it a URL/,
    );
    expect(code).toBe(1);
  });

  it("where the contract says the provider refuses (ChannelAdd), accepted invalid data fails negative_data_rejection", async () => {
    const refuses: ContractPatch = {
      api: "links",
      pointer: "/components/schemas/ChannelAdd",
      key: "x-provider-refuses",
      value: "Test fixture: the provider refuses unknown fields on channel add.",
    };
    const { code, report } = await conformOracle(
      { errors: "always-200" },
      ["--operation", "addChannel", "--max-writes", "20"],
      [...ERROR_ENVELOPES, refuses],
    );
    const failure = report.failures.find((f) => f.check === "negative_data_rejection");
    expect(failure?.message).toMatch(
      /^invalid data was accepted with status 200 \(body .*\), though the provider refuses it: Test fixture/,
    );
    expect(failure?.where).toMatch(/^body/);
    expect(code).toBe(1);
  });
});

describe("a named update, on a server where the example's rotator slug is taken", () => {
  it("runs on a campaign of the run's own, sent with a slug of its own: the example's would be refused with 409", async () => {
    const { code, report, stdout, server } = await conformOracle(
      { errors: "http" },
      ["--operation", "updateCampaign"],
      ERROR_ENVELOPES,
    );
    expect(failing(report), stdout).toEqual([]);
    const updates = server.log.filter(
      (request) => request.method === "PUT" && /^\/api\/campaign\/\d+\/update$/.test(request.url),
    );
    expect(updates.length, stdout).toBeGreaterThanOrEqual(2); // the update, and the update of the deleted campaign
    expect(report.checks.find((c) => c.name === "use_after_free")!.passed).toBeGreaterThan(0);
    expect(code).toBe(0);
  });
});

describe("the account's update, named, on the independent server", () => {
  it("shows on the next read: update_visible_on_read passes on getAccount after the accepted updates", async () => {
    const { code, report, stdout } = await conformOracle(
      { errors: "http" },
      ["--operation", "updateAccount", "--operation", "getAccount"],
      ERROR_ENVELOPES,
    );
    expect(failing(report), stdout).toEqual([]);
    expect(report.checks.find((c) => c.name === "update_visible_on_read")!.operations).toMatchObject({
      updateAccount: { passed: 1 },
    });
    expect(code).toBe(0);
  });
});

describe("a links server that caps the page size, which the seed leaves open", () => {
  // `limit` carries x-assumption: no maximum is shown, so a refused larger page breaks our assumption only.
  const limitAssumption = loadContract("links").resolve("/components/parameters/limit/schema/x-assumption");
  const listDomains = (...more: string[]) => ["--operation", "listDomains", "--max-examples", "10", ...more];

  it("passes, with the refused page sizes as a warning", async () => {
    const { code, report, stdout } = await conformOracle(
      { errors: "http", maxLimit: 10 },
      listDomains(),
      ERROR_ENVELOPES,
    );
    expect(failing(report), stdout).toEqual([]);
    expect(code).toBe(0);
    expect(report.warnings).toContainEqual(
      expect.objectContaining({
        check: "positive_data_acceptance",
        operationId: "listDomains",
        assumption: limitAssumption,
      }),
    );
  });

  it("fails positive_data_acceptance under --strict", async () => {
    const { code, report } = await conformOracle(
      { errors: "http", maxLimit: 10 },
      listDomains("--strict"),
      ERROR_ENVELOPES,
    );
    expect(failing(report).join("\n")).toMatch(
      /positive_data_acceptance on listDomains: valid data was refused: error 1 in the body \(status 400\) \(x-assumption, failing under --strict: The seed says only "results per page"/,
    );
    expect(code).toBe(1);
  });
});

describe("links servers that make the page choices the seed leaves open", () => {
  it.each([
    ["serves at most 1 row a page, whatever limit asks, and says so in perpage", { capLimit: 1 }],
    ["answers a page past the last with the last page, and says so in currentpage", { pastLastPage: "last" as const }],
  ])("pass list_parameters_honoured: a server that %s", async (_name, choice) => {
    const { code, report, stdout, server } = await conformOracle(
      choice,
      ["--operation", "listDomains", "--operation", "addDomain", "--max-examples", "8"],
      [...ERROR_ENVELOPES, ...EMPTY_REDIRECTS_ASSUMED],
    );
    expect(failing(report), stdout).toEqual([]);
    expect(report.checks.find((c) => c.name === "list_parameters_honoured")!.passed).toBeGreaterThan(5);
    // Pages past the last one and limits above the cap were asked for, not only the examples.
    expect(server.log.some((request) => /[?&]page=(?:[3-9]|\d{2,})/.test(request.url))).toBe(true);
    expect(server.log.some((request) => /[?&]limit=(?:[2-9]|\d{2,})/.test(request.url))).toBe(true);
    expect(code).toBe(0);
  });
});

// The links and pay seeds show no HTTP status codes, so the contracts declare success as 200 and mark it x-assumption:
// a provider that answers a creation with 201 Created keeps the seeds and passes, with a warning that names the
// assumption; under --strict the broken assumption fails. Its body is still judged by the 200's schema.
const STATUS_ASSUMPTION = /^The provider shows no success status code; 200 is our reading/;
const statusWarnings = (report: RunReport) => report.warnings.filter((w) => w.check === "status_code_conformance");
const payCreateOrder = (url: string, ...more: string[]) => [
  "pay",
  "--base-url",
  url,
  "--seed",
  "5",
  "--max-examples",
  "4",
  "--allow-writes",
  "--operation",
  "createOrder",
  ...more,
];

describe("servers that answer a creation with 201 where the contract assumes 200", () => {
  it("links: domain, campaign and channel creations with 201 pass with the assumption's warning", async () => {
    const { code, report, stdout } = await conformOracle(
      { errors: "http", createdStatus: 201 },
      ["--operation", "addDomain", "--operation", "addCampaign", "--operation", "addChannel"],
      [...ERROR_ENVELOPES, ...EMPTY_REDIRECTS_ASSUMED],
    );
    expect(failing(report), stdout).toEqual([]);
    const warned = statusWarnings(report);
    expect(warned.map((w) => w.operationId).sort()).toEqual(["addCampaign", "addChannel", "addDomain"]);
    for (const warning of warned) {
      expect(warning.assumption).toMatch(STATUS_ASSUMPTION);
      expect(warning.message).toMatch(/^status 201 is not documented; the contract assumes 200/);
    }
    expect(stdout).toMatch(/status 201 is not documented; the contract assumes 200/);
    expect(
      report.checks.find((c) => c.name === "response_schema_conformance")!.operations["addDomain"]!.passed,
    ).toBeGreaterThan(0);
    expect(code).toBe(0);
  });

  it("links: with --strict the 201 fails status_code_conformance, naming the assumption", async () => {
    const { code, report } = await conformOracle(
      { errors: "http", createdStatus: 201 },
      ["--operation", "addDomain", "--strict"],
      [...ERROR_ENVELOPES, ...EMPTY_REDIRECTS_ASSUMED],
    );
    expect(failing(report).join("\n")).toMatch(
      /status_code_conformance on addDomain: status 201 is not documented; the contract assumes 200 .*x-assumption, failing under --strict: The provider shows no success status code/,
    );
    expect(code).toBe(1);
  });

  it("pay: createOrder answered with 201 passes with the warning, and fails under --strict", async () => {
    const server = await startOraclePayServer({ shopId: env.PAY_SHOP_ID, secret: env.PAY_SECRET, createdStatus: 201 });
    servers.push(server);
    const lenient = await conformInProcess(payCreateOrder(server.url), env, []);
    expect(failing(lenient.report), lenient.stdout).toEqual([]);
    expect(statusWarnings(lenient.report).map((w) => [w.operationId, STATUS_ASSUMPTION.test(w.assumption)])).toEqual([
      ["createOrder", true],
    ]);
    expect(lenient.report.checks.find((c) => c.name === "response_schema_conformance")!.passed).toBeGreaterThan(0);
    expect(lenient.code).toBe(0);
    const strict = await conformInProcess(payCreateOrder(server.url, "--strict"), env, []);
    expect(failing(strict.report).join("\n")).toMatch(/status_code_conformance on createOrder: status 201 .*--strict/);
    expect(strict.code).toBe(1);
  });

  it("without the assumption on 200, a 201 falls under default and its success body fails the error envelope", async () => {
    const unassumed: ContractPatch = {
      api: "links",
      pointer: "/paths/~1api~1domain~1add/post/responses/200",
      key: "x-assumption",
      value: undefined,
    };
    const { code, report } = await conformOracle(
      { errors: "http", createdStatus: 201 },
      ["--operation", "addDomain"],
      [...ERROR_ENVELOPES, ...EMPTY_REDIRECTS_ASSUMED, unassumed],
    );
    expect(failing(report).join("\n")).toMatch(
      /response_schema_conformance on addDomain: the body does not match ErrorEnvelope/,
    );
    expect(statusWarnings(report)).toEqual([]);
    expect(code).toBe(1);
  });
});
