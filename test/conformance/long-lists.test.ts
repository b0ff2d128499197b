// Accounts in use, on the independent servers written from the seeds: hundreds of domains, campaigns, channels and
// orders, listed 10 to a page in an order the seeds do not show. The stateful sequences find what they created
// without reading every page, see a deleted campaign still listed on a far page, and, when the list is too long to
// search within the budget, say the check could not run instead of calling the resource missing.
import { afterEach, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { LIST_PAGES_READ } from "../../conformance/steps/list-search.js";
import { type OracleLinksOptions, startOracleLinksServer } from "../../conformance/oracle/links.js";
import { startOraclePayServer } from "../../conformance/oracle/pay.js";
import type { RunReport } from "../../conformance/report/report.js";
import { conformInProcess } from "../support/conform.js";

const C = FAULT_SERVER_CREDENTIALS;
let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function linksOracle(options: Omit<OracleLinksOptions, "token">): Promise<RunningServer> {
  const server = await startOracleLinksServer({ token: C.LINKS_TOKEN, windowMs: 1000, ...options });
  servers.push(server);
  return server;
}

const SEQUENCES = ["--operation", "addDomain", "--operation", "addCampaign", "--operation", "addChannel"];
const linksArgs = (url: string, ...more: string[]) => [
  "links",
  "--base-url",
  url,
  "--allow-writes",
  "--max-examples",
  "1",
  "--seed",
  "7",
  "--rate-limit",
  "1000/s",
  ...more,
];
const failing = (report: RunReport) => report.failures.map((f) => `${f.check} on ${f.operationId}: ${f.message}`);
const check = (report: RunReport, name: string) => report.checks.find((c) => c.name === name)!;
/** Reads of a list page that the sequences sent: the ones without `limit`. */
const pageReads = (server: RunningServer, path: string) =>
  server.log.filter((r) => r.method === "GET" && r.url.startsWith(`${path}?`) && !r.url.includes("limit=")).length;

describe("links: an account with 300 domains, campaigns and channels (31 pages each)", () => {
  it.each(["oldest-first", "newest-first"] as const)(
    "listed %s: each new resource is found at an end of its list, and each deletion shown, in a few pages",
    async (listOrder) => {
      const server = await linksOracle({ accountSize: 300, listOrder });
      const { code, report, stdout } = await conformInProcess(linksArgs(server.url, ...SEQUENCES), { ...C });
      expect(failing(report), stdout).toEqual([]);
      expect(code, stdout).toBe(0);
      expect(check(report, "ensure_resource_availability").operations).toEqual({
        listCampaigns: { passed: 1, failed: 0 },
        listChannels: { passed: 1, failed: 0 },
        listDomains: { passed: 1, failed: 0 },
      });
      expect(check(report, "use_after_free").operations).toMatchObject({
        listCampaigns: { passed: 1 },
        listDomains: { passed: 1 },
      });
      // Found in at most two reads (page 1, then the last); the deletion checked on its page, the ends and beside it.
      expect(pageReads(server, "/api/campaigns")).toBeLessThanOrEqual(2 + 4);
    },
  );

  it("a deleted campaign that stays listed on the last of 31 pages fails use_after_free", async () => {
    const server = await linksOracle({ accountSize: 300, fault: "deleted-campaign-listed" });
    const { code, report } = await conformInProcess(linksArgs(server.url, "--operation", "addCampaign"), { ...C });
    expect(failing(report)).toEqual([
      expect.stringMatching(
        /^use_after_free on listCampaigns: the campaign \d+ was deleted but is still in listCampaigns$/,
      ),
    ]);
    expect(code).toBe(1);
  });

  it(`sorted by name, with the new campaign in the middle of 61 pages: ${LIST_PAGES_READ} pages read, and the check could not run`, async () => {
    const server = await linksOracle({ accountSize: 600, listOrder: "by-name" });
    const { code, report, stdout } = await conformInProcess(linksArgs(server.url, "--operation", "addCampaign"), {
      ...C,
    });
    expect(failing(report)).toEqual([]);
    expect(check(report, "ensure_resource_availability").couldNotRun).toMatch(
      new RegExp(
        `^the new campaign \\d+ could not be looked for: listCampaigns was read for ${LIST_PAGES_READ} pages \\(both ends first\\) without finding it, and the list goes on to page 61$`,
      ),
    );
    expect(pageReads(server, "/api/campaigns")).toBe(LIST_PAGES_READ);
    expect(stdout).toMatch(/COULD NOT RUN/);
    expect(code).toBe(1);
  });
});

describe("pay: a shop with 250 orders and no page count in the list", () => {
  it.each(["oldest-first", "newest-first"] as const)(
    "listed %s: the new order is found, the last page located by doubling and halving",
    async (listOrder) => {
      const server = await startOraclePayServer({
        shopId: C.PAY_SHOP_ID,
        secret: C.PAY_SECRET,
        orderHistory: 250,
        listOrder,
      });
      servers.push(server);
      const args = [
        "pay",
        "--base-url",
        server.url,
        "--allow-writes",
        "--operation",
        "createOrder",
        "--max-examples",
        "1",
        "--max-writes",
        "2",
        "--seed",
        "7",
      ];
      const { code, report, stdout } = await conformInProcess(args, { ...C });
      expect(failing(report), stdout).toEqual([]);
      expect(code, stdout).toBe(0);
      expect(check(report, "ensure_resource_availability")).toMatchObject({ passed: 1, failed: 0 });
      // Pages 1, 2, 4, 8, 16, 32, 24, 28, 26, 27 at most: the new order is on page 1 or page 26.
      const listReads = server.log.filter((r) => r.url === "/api/orders/").length;
      expect(listReads).toBeLessThanOrEqual(listOrder === "newest-first" ? 1 + 5 : 10 + 5);
    },
  );
});
