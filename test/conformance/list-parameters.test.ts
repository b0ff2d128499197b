// What list_parameters_honoured and seen_together judge on one list response: the seed's words (limit is results per
// page, page the current page number; pay's status and date_payed only seen together), and every choice the seed
// leaves open passing (a provider's maximum page size, the last page served past the end). Then whole runs over seeds
// 1-20: a links server whose lists say `currentpage: 1` whatever page was asked for fails by exactly this check, and
// the same server without the fault passes it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS, FAULTS } from "../../conformance/fault-servers/faults.js";
import { type LinksServer, startLinksServer } from "../../conformance/fault-servers/links.js";
import { listParametersProblems, seenTogetherProblems } from "../../conformance/judge/list-parameters.js";
import type { Exchange } from "../../conformance/model/exchange.js";
import { conformInProcess } from "../support/conform.js";
import { checkOf, failingChecks } from "../support/conform-cli.js";

function exchange(query: string, body: unknown): Exchange {
  return {
    request: { method: "GET", url: `https://links.example.com/api/domains${query}`, headers: {} },
    response: { status: 200, headers: {}, text: JSON.stringify(body), json: body, isJson: true, setCookies: [] },
    durationMs: 1,
    receivedAt: Date.now(),
  };
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1 }));
const listPage = (perpage: number, currentpage: number, maxpage: number, count: number, error: unknown = "0") => ({
  error,
  data: {
    result: 50,
    perpage,
    currentpage,
    nextpage: Math.min(currentpage + 1, maxpage),
    maxpage,
    domains: rows(count),
  },
});
const judge = (query: string, body: unknown) => listParametersProblems("links", exchange(query, body));

describe("list_parameters_honoured", () => {
  it("passes a page that does what was asked", () => {
    expect(judge("?limit=2&page=3", listPage(2, 3, 25, 2))).toBe("");
    expect(judge("", listPage(10, 1, 5, 10))).toBe("");
  });

  it("passes the choices the seed leaves open: a maximum page size below limit, the last page past the end", () => {
    expect(judge("?limit=500", listPage(100, 1, 1, 50))).toBe("");
    expect(judge("?page=99", listPage(10, 5, 5, 0))).toBe("");
    expect(judge("?page=99", listPage(10, 99, 5, 0))).toBe("");
  });

  it("fails a server that ignores limit, reports another perpage, or another currentpage", () => {
    expect(judge("?limit=1", listPage(10, 1, 5, 10))).toBe(
      "limit=1 was sent but the page lists 10 rows; limit=1 was sent but perpage is 10",
    );
    expect(judge("?limit=3", listPage(3, 1, 5, 4))).toMatch(/perpage is 3 but the page lists 4 rows/);
    expect(judge("?page=1", listPage(10, 0, 5, 10))).toBe("page=1 was asked for but currentpage is 0");
    expect(judge("?page=2", listPage(10, 1, 5, 10))).toBe("page=2 was asked for but currentpage is 1");
  });

  it("judges nothing that is no successful list (a refusal in the envelope, another API)", () => {
    expect(judge("?limit=1", { error: 1, message: "no" })).toBeUndefined();
    expect(judge("?limit=1", listPage(10, 1, 5, 10, 1))).toBeUndefined();
    expect(listParametersProblems("catalog", exchange("?limit=1", listPage(10, 1, 5, 10)))).toBeUndefined();
  });
});

describe("seen_together", () => {
  const orders = (...list: Array<[number, string | null]>) => ({
    type: "success",
    desc: "",
    data: list.map(([status, date_payed]) => ({ id: 1, status, date_payed })),
  });
  const seen = (body: unknown) => seenTogetherProblems("pay", "listOrders", exchange("", body));

  it("passes status 0 with date_payed null and 1 with a timestamp, and leaves other statuses alone", () => {
    expect(seen(orders([0, null], [1, "2024-03-02 14:07:40"], [2, null], [2, "2024-03-02 14:07:40"]))).toBe("");
  });

  it("names the rows that break it", () => {
    expect(seen(orders([1, null], [0, "2024-03-02 14:07:40"]))).toBe(
      'a row with status 1 has date_payed null (seen only with a string); a row with status 0 has date_payed "2024-03-02 14:07:40" (seen only with null)',
    );
    expect(seenTogetherProblems("pay", "listShops", exchange("", orders([1, null])))).toBeUndefined();
  });
});

describe("currentpage stuck at 1, over seeds 1-20", () => {
  const fault = FAULTS.find((each) => each.name === "links-currentpage-always-1")!;
  const SEEDS = Array.from({ length: 20 }, (_, index) => index + 1);
  let stuck: LinksServer;
  let correct: LinksServer;
  beforeAll(async () => {
    stuck = (await fault.start()) as LinksServer;
    correct = await startLinksServer({ token: FAULT_SERVER_CREDENTIALS.LINKS_TOKEN, rateLimit: { windowMs: 1000 } });
  });
  afterAll(async () => {
    await Promise.all([stuck?.close(), correct?.close()]);
  });
  const run = (url: string, seed: number) =>
    conformInProcess(
      [
        "links",
        "--base-url",
        url,
        "--max-examples",
        "3",
        ...fault.args,
        "--seed",
        String(seed),
        "--rate-limit",
        "1000/s",
      ],
      { ...FAULT_SERVER_CREDENTIALS },
    );

  it.each(SEEDS)(
    "seed %i: the stuck server fails by list_parameters_honoured alone; the correct one passes",
    async (seed) => {
      const failed = await run(stuck.url, seed);
      expect(failingChecks(failed.report), failed.output).toEqual(["list_parameters_honoured"]);
      expect(failed.code).toBe(1);
      expect(failed.report.failures.map((f) => [f.operationId, f.message])).toContainEqual([
        "listDomains",
        expect.stringMatching(/page=2 was asked for but currentpage is 1/),
      ]);
      const before = correct.log.length;
      const passed = await run(correct.url, seed);
      expect(failingChecks(passed.report), passed.output).toEqual([]);
      expect(passed.code).toBe(0);
      // It judged page 2 of one row, as the server's log shows, and passed: not skipped, not left unreached.
      const check = checkOf(passed.report, "list_parameters_honoured");
      expect([check.skipped, check.couldNotRun], passed.output).toEqual([undefined, undefined]);
      expect(check.passed).toBeGreaterThan(0);
      const pageTwo = correct.log.slice(before).filter((entry) => {
        const url = new URL(entry.url, "http://localhost");
        return url.pathname === "/api/domains" && url.searchParams.get("page") === "2";
      });
      expect(pageTwo.map((entry) => new URL(entry.url, "http://localhost").searchParams.get("limit"))).toContain("1");
    },
  );
});
