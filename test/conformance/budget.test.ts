// The request budget in real runs on loopback: the default links budget (60 requests read-only, 90 with writes)
// catches every links fault of the fault table in a whole-API run, and a budget too small for the plan reports the
// rest as not reached, never as passed, in the console, the JSON, the JUnit and the HTML reports. The servers keep
// the seed's 30 requests per window in one-second windows.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { LINKS_FAULTS, runLinksFault } from "../../conformance/fault-servers/budget-runs.js";
import { FAULT_SERVER_CREDENTIALS, startReferenceServer } from "../../conformance/fault-servers/faults.js";
import { conformInProcess } from "../support/conform.js";

const servers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe("the default budget of a rate-limited contract", () => {
  it("catches every links fault in a whole run of at most 60 requests (90 with writes)", async () => {
    // The runs mostly wait for their one-second windows, so they go side by side, each against its own server;
    // a fault that patches the contract patches it for the whole process, so those go first, alone.
    const runs = [];
    for (const fault of LINKS_FAULTS.filter((f) => f.contract))
      runs.push({ fault, run: await runLinksFault(fault, "default") });
    const unpatched = LINKS_FAULTS.filter((f) => !f.contract);
    runs.push(
      ...(await Promise.all(unpatched.map(async (fault) => ({ fault, run: await runLinksFault(fault, "default") })))),
    );
    expect(runs.length).toBe(LINKS_FAULTS.length);
    const missed: string[] = [];
    for (const { fault, run } of runs) {
      expect(run.requests, fault.name).toBeLessThanOrEqual(run.writes ? 90 : 60);
      if (!run.caught) missed.push(`${fault.name}: ${fault.check} not among ${run.failing.join(", ") || "nothing"}`);
    }
    expect(missed).toEqual([]);
  }, 240_000);

  it("reaches every operation and every kind of case once before any twice, within 60 requests", async () => {
    const server = await startReferenceServer("links");
    servers.push(server);
    const { code, report } = await conformInProcess(
      ["links", "--base-url", server.url, "--seed", "3", "--rate-limit", "30/s"],
      { ...FAULT_SERVER_CREDENTIALS },
    );
    expect(code).toBe(0);
    expect(report.requests).toBeLessThanOrEqual(60);
    expect(report.budget).toMatchObject({ maxRequests: 60, default: true });
    expect(report.budget!.notReached).toBeGreaterThan(0);
    const readOnly = report.coverage!.byOperation.filter((op) => op.method === "GET");
    for (const op of readOnly) {
      expect(op.reached, op.operationId).toBe(true);
      const reachedKinds = Object.keys(op.kinds);
      // What the budget left out is only more of a kind already reached (random invalid data is judged as mutations).
      for (const left of op.notReachedCases ?? [])
        expect(
          left.kind === "random invalid data"
            ? reachedKinds.some((k) => k.startsWith("mutation: "))
            : reachedKinds.includes(left.kind),
          `${op.operationId}: ${left.kind}`,
        ).toBe(true);
    }
  });
});

describe("a budget too small for the plan", () => {
  it("reports the rest as not reached, not passed, in every report", async () => {
    const server = await startReferenceServer("links");
    servers.push(server);
    const html = `${process.env.TMPDIR ?? "/tmp"}/budget-${process.pid}.html`;
    const { code, report, stdout, files } = await conformInProcess(
      ["links", "--base-url", server.url, "--seed", "3", "--rate-limit", "30/s", "--max-requests", "8", "--html", html],
      { ...FAULT_SERVER_CREDENTIALS },
      [],
      { junit: true },
    );
    expect(code).toBe(0);
    expect(report.requests).toBeLessThanOrEqual(8);
    expect(report.budget).toMatchObject({ maxRequests: 8, default: false });
    // One request checks the target, one reads a channel for listChannelItems' link: the six examples fill the rest.
    expect(report.budget!.reached).toBe(6);
    expect(report.budget!.notReached).toBe(report.budget!.planned - 6);
    expect(report.coverage!.byOperation.filter((op) => op.reached)).toHaveLength(6);
    // The credential probes were not reached: ignored_auth has no result, and says so instead of passing or skipping.
    const ignoredAuth = report.checks.find((c) => c.name === "ignored_auth")!;
    expect(ignoredAuth.passed + ignoredAuth.failed).toBe(0);
    expect(ignoredAuth.skipped).toBeUndefined();
    expect(ignoredAuth.notReached).toMatch(/planned cases beyond the budget \(8 requests\)/);
    const listDomains = report.coverage!.byOperation.find((op) => op.operationId === "listDomains")!;
    expect(listDomains.notReachedCases!.map((c) => c.kind)).toEqual(
      expect.arrayContaining(["no credentials", "wrong credentials", "random data"]),
    );
    expect(stdout).toMatch(/Budget: 8 requests; 6 of \d+ planned cases reached/);
    expect(stdout).toMatch(/\d+ planned cases not reached \(not passed\)/);
    // On the console too a check the budget did not reach is not shown as passed.
    expect(stdout).toMatch(/- ignored_auth +not reached: \d+ planned cases beyond the budget \(8 requests\)/);
    expect(stdout).toMatch(/✓ not_a_server_error +passed \d+ \(more not reached\)/);
    const junit = readFileSync(files.junit!, "utf8");
    expect(junit).toContain('<property name="budget.cases-not-reached"');
    expect(junit).toMatch(/name="ignored_auth \(not reached\)"><skipped message="not reached: /);
    expect(junit).not.toMatch(/name="ignored_auth [a-zA-Z]+"\/>/);
    const page = readFileSync(html, "utf8");
    expect(page).toContain("not reached within the budget");
  });
});

describe("a budget in time", () => {
  it("--max-duration stops starting cases that would end after it, and says what it left out", async () => {
    const server = await startReferenceServer("links");
    servers.push(server);
    // At 30 requests a second a case is expected to take a thirtieth of a second: one second holds about 30.
    const { code, report, stdout, stderr } = await conformInProcess(
      ["links", "--base-url", server.url, "--seed", "3", "--rate-limit", "30/s", "--max-duration", "1s"],
      { ...FAULT_SERVER_CREDENTIALS },
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(/read-only, budget 1 s/);
    expect(stdout).toMatch(/Budget: 1 s; \d+ of \d+ planned cases reached/);
    expect(report.budget).toMatchObject({ maxDurationSeconds: 1, default: false });
    expect(report.budget!.maxRequests).toBeUndefined();
    expect(report.requests).toBeLessThan(40);
    expect(report.budget!.notReached).toBeGreaterThan(0);
    expect(Date.parse(report.finishedAt) - Date.parse(report.startedAt)).toBeLessThan(5000);
  });

  it("refuses a budget it cannot read", async () => {
    for (const [flag, value] of [
      ["--max-requests", "lots"],
      ["--max-requests", "1"],
      ["--max-duration", "soon"],
    ])
      await expect(
        conformInProcess(["links", "--base-url", "http://127.0.0.1:9", flag!, value!], { ...FAULT_SERVER_CREDENTIALS }),
      ).rejects.toThrow(new RegExp(`${flag} takes`));
  });
});
