// The coverage section: what the run reached per operation, documented status and kind of case, and what it did not.
// An operation the run never sent a request to is "not reached" with the reason, never counted as passed.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestCase } from "../../conformance/model/cases.js";
import { CoverageLog } from "../../conformance/report/coverage.js";
import { caseKind, mutationKind } from "../../conformance/plan/case-kinds.js";
import { FAULT_SERVER_CREDENTIALS, startReferenceServer } from "../../conformance/fault-servers/faults.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import type { Exchange } from "../../conformance/model/exchange.js";
import { conformInProcess } from "../support/conform.js";

function exchange(status: number | undefined, interrupted = false): Exchange {
  return {
    request: { method: "GET", url: "http://127.0.0.1/x", headers: {} },
    ...(status === undefined ? {} : { response: { status, headers: {}, text: "" } }),
    ...(interrupted ? { interrupted } : {}),
    durationMs: 1,
    receivedAt: 0,
  } as Exchange;
}

const base: RequestCase = { origin: "example", label: "example x", path: {}, query: {}, headers: {} };

describe("coverage log", () => {
  it("names each kind of case, mutations by what they break", () => {
    expect(caseKind(base, "valid", false)).toBe("example");
    expect(caseKind({ ...base, origin: "random" }, "valid", false)).toBe("random data");
    expect(caseKind({ ...base, origin: "sequence" }, "valid", false)).toBe("sequence step");
    expect(caseKind(base, "none", false)).toBe("no credentials");
    expect(caseKind(base, "wrong", false)).toBe("wrong credentials");
    const invalid: RequestCase = {
      ...base,
      origin: "invalid",
      violation: { description: "body /name: longer than maxLength 40", location: { in: "body", path: ["name"] } },
    };
    expect(caseKind(invalid, "valid", false)).toBe("mutation: longer than maxLength");
    expect(mutationKind("query parameter limit: wrong type (boolean)")).toBe("wrong type");
    expect(mutationKind("body /url: does not match the pattern ^https?://")).toBe("does not match the pattern");
    expect(mutationKind("body: malformed JSON")).toBe("malformed JSON");
    expect(mutationKind('body /status: not one of ["a","b"]')).toBe("not one of");
    expect(mutationKind('body /kind: not the constant "x"')).toBe("not the constant");
    expect(mutationKind("query parameter page: below the minimum 1")).toBe("below the minimum");
    expect(mutationKind("body /format: not a valid date-time")).toBe("not a valid date-time");
  });

  it("reports what was sent as reached, and every other operation as not reached with its reason", () => {
    const log = new CoverageLog();
    const ok = exchange(200);
    log.sent("getAccount", "example", ok);
    log.judged("getAccount", "response_schema_conformance", ok, true);
    const refused = exchange(401);
    log.sent("getAccount", "no credentials", refused);
    log.judged("getAccount", "ignored_auth", refused, false);
    log.sent("listDomains", "example", exchange(undefined, true)); // interrupted: never sent
    const report = log.report("links", new Map([["listDomains", "not selected (--operation)"]]));

    const account = report.byOperation.find((op) => op.operationId === "getAccount")!;
    expect(account.reached).toBe(true);
    expect(account.kinds.example).toEqual({
      requests: 1,
      statuses: [200],
      checks: { response_schema_conformance: { passed: 1, failed: 0 } },
    });
    expect(account.kinds["no credentials"]?.checks.ignored_auth).toEqual({ passed: 0, failed: 1 });
    expect(account.documentedSeen).toContain("200");
    expect(account.documentedSeen.every((code) => account.documentedStatuses.includes(code))).toBe(true);

    const domains = report.byOperation.find((op) => op.operationId === "listDomains")!;
    expect(domains).toMatchObject({ reached: false, notReached: "not selected (--operation)", kinds: {} });
    const others = report.byOperation.filter((op) => op.operationId !== "getAccount");
    expect(others.every((op) => !op.reached && op.notReached && Object.keys(op.kinds).length === 0)).toBe(true);
    expect(report.operations).toEqual({ reached: 1, total: report.byOperation.length });
    expect(report.kinds).toEqual(["example", "no credentials"]);
  });

  it("counts an exchange a check judged that the session did not send (a sign-in step, a replay) as a sequence step", () => {
    const log = new CoverageLog();
    log.judged("authorize", "sign_in", exchange(302), true);
    log.judged("authorize", "sign_in", undefined, false);
    const authorize = log.report("identity", new Map()).byOperation.find((op) => op.operationId === "authorize")!;
    expect(authorize.reached).toBe(true);
    expect(authorize.kinds["sequence step"]).toEqual({
      requests: 1,
      statuses: [302],
      checks: { sign_in: { passed: 1, failed: 1 } },
    });
  });
});

describe("coverage of a real run", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startReferenceServer("links");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a run restricted to one operation reaches it and reports the others as not reached, never passed", async () => {
    const run = await conformInProcess(
      ["links", "--base-url", server.url, "--operation", "getAccount", "--max-examples", "3", "--rate-limit", "1000/s"],
      { ...FAULT_SERVER_CREDENTIALS },
      [],
      { junit: true },
    );
    expect(run.code, run.output).toBe(0);
    const coverage = run.report.coverage!;
    const account = coverage.byOperation.find((op) => op.operationId === "getAccount")!;
    expect(account.reached).toBe(true);
    expect(Object.keys(account.kinds)).toEqual(expect.arrayContaining(["example", "random data", "no credentials"]));
    expect(account.kinds.example!.checks.not_a_server_error!.passed).toBeGreaterThan(0);
    const missed = coverage.byOperation.filter((op) => !op.reached);
    expect(missed.length).toBe(coverage.operations.total - coverage.operations.reached);
    expect(missed.map((op) => op.operationId)).toContain("listDomains");
    for (const op of missed) {
      expect(op.notReached).toBeTruthy();
      expect(op.kinds).toEqual({});
      // Not passed: no check has a result on an operation nothing was sent to.
      for (const check of run.report.checks) expect(check.operations[op.operationId]).toBeUndefined();
    }
    expect(run.stdout).toMatch(/Coverage: operations reached \d+\/\d+, documented statuses seen \d+\/\d+/);
    expect(run.stdout).toMatch(/not reached: .*listDomains|not reached: .*and \d+ more/);
    const junit = readFileSync(run.files.junit!, "utf8");
    expect(junit).toContain(`<property name="coverage.operations-reached" value="${coverage.operations.reached}/`);
    expect(junit).toMatch(/<property name="coverage.not-reached" value="[^"]*listDomains/);
  });
});
