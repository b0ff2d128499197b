// The report groups failures by cause: a links server whose five lists all answer `error: 0` (an integer) where the
// seed documents the string "0" fails one cause on five operations, and the console, the HTML and the JUnit report
// show it as one block each; a second, different cause is a second block. The baseline keeps causes, so a cause
// accepted on one operation stays accepted on all five, and a new cause still fails the run.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { type LinksFault, startLinksServer } from "../../conformance/fault-servers/links.js";
import { applyBaseline, type BaselineFile } from "../../conformance/report/baseline.js";
import { causeOf, groupCauses } from "../../conformance/report/causes.js";
import { consoleReport } from "../../conformance/report/console-report.js";
import { junitReport } from "../../conformance/report/junit.js";
import type { FailureRecord } from "../../conformance/report/ledger.js";
import { htmlReport } from "../../conformance/report/report-html.js";
import type { RunReport } from "../../conformance/report/report.js";
import { conformInProcess } from "../support/conform.js";

const env = { ...FAULT_SERVER_CREDENTIALS };
const dir = mkdtempSync(join(tmpdir(), "report-causes-"));
const servers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const LISTS = ["listCampaigns", "listChannelItems", "listChannels", "listDomains", "listOverlays"];
const same = (text: string) => text;

async function run(fault: LinksFault, ...more: string[]) {
  const server = await startLinksServer({ token: env.LINKS_TOKEN, fault, rateLimit: { windowMs: 1000 } });
  servers.push(server);
  const html = join(dir, `${fault}-${servers.length}.html`);
  const args = ["links", "--base-url", server.url, "--max-examples", "3", "--seed", "7", "--rate-limit", "1000/s"];
  const result = await conformInProcess([...args, "--html", html, ...more], env, [], { junit: true });
  return { ...result, html: readFileSync(html, "utf8"), junit: readFileSync(result.files.junit!, "utf8") };
}

/** The numbered blocks of the console's "Failures by cause" section. */
const consoleBlocks = (stdout: string) => stdout.split("Failures by cause:")[1]?.match(/^\d+\. /gm) ?? [];

describe("causeOf", () => {
  const failure = (check: string, message: string, where?: string) => ({ check, message, where });

  it("is the same for one fault on operations with different schemas, ids and values", () => {
    const keys = ["DomainListResponse", "OverlayListResponse", "ChannelItemListResponse"].map((schema) =>
      causeOf(failure("response_schema_conformance", `the body does not match ${schema}: /error must be string`)),
    );
    expect(new Set(keys).size).toBe(1);
    expect(causeOf(failure("not_a_server_error", 'status 500 for "abc" at http://x/api/domains/17'))).toBe(
      causeOf(failure("not_a_server_error", 'status 503 for "xyz" at http://y/api/campaigns/4')),
    );
  });

  it("differs for another field, another keyword, another check or another place in the request", () => {
    const base = causeOf(failure("response_schema_conformance", "the body does not match A: /error must be string"));
    expect(causeOf(failure("response_schema_conformance", "the body does not match A: /data must be object"))).not.toBe(
      base,
    );
    expect(
      causeOf(failure("response_schema_conformance", "the body does not match A: /error must be integer")),
    ).not.toBe(base);
    expect(causeOf(failure("content_type_conformance", "the body does not match A: /error must be string"))).not.toBe(
      base,
    );
    expect(causeOf(failure("negative_data_rejection", "accepted", "query parameter limit"))).not.toBe(
      causeOf(failure("negative_data_rejection", "accepted", "query parameter page")),
    );
  });

  it("is the same for one behaviour on every path: the request it showed on is left out", () => {
    const noAllow = (request: string, documented: string) =>
      causeOf(failure("allow_header", `${request} got 405 without an Allow header (RFC 9110 §15.5.6) ${documented}`));
    expect(noAllow("DELETE http://127.0.0.1:1/api/domains", "(documented: GET)")).toBe(
      noAllow("PATCH http://127.0.0.1:1/api/campaign/7/update", "(documented: PUT)"),
    );
    const htmlPage = (request: string) =>
      causeOf(failure("unsupported_method", `${request} was answered with status 405 and a body that is not JSON`));
    expect(htmlPage("GET /api/domain/add")).toBe(htmlPage("DELETE /api/account"));
    expect(htmlPage("GET /api/domain/add")).not.toBe(
      causeOf(failure("unsupported_method", "GET /api/domain/add was answered with the server error 500")),
    );
  });

  it("of an overlay's deviation is its check and schema location, whole: each branch of a union is its own", () => {
    const deviation = (location: string) => ({ check: "response_schema_conformance", location });
    expect(causeOf(deviation("/components/schemas/OverlayPage"))).toBe(
      "response_schema_conformance | /components/schemas/OverlayPage",
    );
    expect(causeOf(deviation("/components/schemas/Id/anyOf/0"))).not.toBe(
      causeOf(deviation("/components/schemas/Id/anyOf/1")),
    );
  });
});

describe("the report by cause", () => {
  it("shows one cause on five lists as one block in the console, the HTML and the JUnit report", async () => {
    const { code, report, stdout, stderr, html, junit } = await run("list-error-as-integer");
    expect(code, stdout + stderr).toBe(1);
    expect(report.failures.map((f) => f.operationId).sort()).toEqual(LISTS);

    // Console: one block that names the five operations, the seed sentence, and one reproduction.
    expect(stdout).toMatch(/Failures by cause: 1 cause of failure across 5 operations \(\d+ failing results\)/);
    expect(consoleBlocks(stdout)).toEqual(["1. "]);
    expect(stdout).toMatch(new RegExp(`on 5 operation\\(s\\), \\d+ failing result\\(s\\): ${LISTS.join(", ")}`));
    expect(stdout).toContain('breaks: links seed: | error | integer 0 or 1 (list responses carry the string form "0")');
    expect(stdout.match(/reproduce:/g)).toHaveLength(1);
    expect(stdout).toContain('-H "Authorization: Bearer ${LINKS_TOKEN}"');
    // Each list's line points to the cause, not to a check per operation.
    for (const list of LISTS) expect(stdout).toMatch(new RegExp(`✗ ${list} +\\d+ check results, failed: cause 1\\n`));
    expect(stderr).toMatch(
      /contracts conform: 1 cause of failure across 5 operations \(\d+ failing results\) on links/,
    );

    // The progress: the cause once, one line per operation at most, not one per request.
    expect(stderr.match(/✗ cause/g)).toHaveLength(1);
    const progress = stderr.split("\n").filter((line) => line.startsWith("[links]"));
    expect(progress.length).toBeLessThanOrEqual(report.coverage!.operations.reached + 1);
    expect(report.requests).toBeGreaterThan(3 * progress.length);

    // HTML: one cause block listing the five operations, one reproduction.
    expect(html.match(/class="failure cause/g)).toHaveLength(1);
    expect(html.match(/<pre class="reproduction">/g)).toHaveLength(1);
    for (const list of LISTS) expect(html).toContain(`<li>${list} <small>`);
    expect(html).toMatch(/Failures by cause: 1 cause of failure across 5 operations/);

    // JUnit: one failing test case for the cause, naming its operations; the checks that passed keep their cases.
    const failures = [...junit.matchAll(/<failure message="([^"]*)" type="([^"]*)"/g)];
    expect(failures.map((m) => m[2])).toEqual(["response_schema_conformance"]);
    expect(failures[0]![1]).toContain(`(on ${LISTS.join(", ")})`);
    expect(junit).toContain('name="cause 1: response_schema_conformance on 5 operations"');
    expect(junit).toMatch(/<testsuites name="contracts conform" tests="\d+" failures="1" /);
    for (const list of [...LISTS, "getAccount"])
      expect(junit).toContain(`<testcase classname="conform.links.${list}" name="not_a_server_error ${list}"/>`);
    expect(junit).toContain('name="response_schema_conformance getAccount"/>');
    expect(junit).not.toContain('name="response_schema_conformance listDomains"');
  });

  it("gives a second, different cause a second block", async () => {
    const lists = await run("list-error-as-integer");
    const account = await run("wrong-content-type", "--operation", "getAccount");
    expect(account.report.failures.map((f) => f.check)).toEqual(["content_type_conformance"]);
    // One report with the failures of both servers, as a deployment with both faults would have.
    const both: RunReport = { ...lists.report, failures: [...lists.report.failures, ...account.report.failures] };
    expect(groupCauses("links", both.failures).map((c) => c.operations.length)).toEqual([5, 1]);

    const text = consoleReport(both, same);
    expect(consoleBlocks(text)).toEqual(["1. ", "2. "]);
    expect(text).toMatch(/Failures by cause: 2 causes of failure across 6 operations/);
    expect(text).toMatch(/^2\. content_type_conformance: Content-Type text\/plain is not documented/m);
    expect(htmlReport(both, same).match(/class="failure cause/g)).toHaveLength(2);
    const junit = junitReport(both, same);
    expect([...junit.matchAll(/<failure message="[^"]*" type="([^"]*)"/g)].map((m) => m[1])).toEqual([
      "response_schema_conformance",
      "content_type_conformance",
    ]);
    expect(junit).toContain('name="cause 2: content_type_conformance on getAccount"');
  });
  it("gives one HTML 405 page on every path one block per check", async () => {
    const { stdout } = await run("undocumented-method-html", "--allow-writes");
    const blocks = stdout.split("Failures by cause:")[1] ?? "";
    expect(blocks.match(/^\d+\. unsupported_method/gm)).toHaveLength(1);
    expect(consoleBlocks(stdout)).toHaveLength(1);
  });
});

describe("--baseline by cause", () => {
  it("a cause accepted on one list stays accepted on all five; a new cause fails", async () => {
    const file = join(dir, "lists.json");
    const written = await run(
      "list-error-as-integer",
      "--operation",
      "listDomains",
      "--baseline",
      file,
      "--update-baseline",
    );
    expect(written.code).toBe(0);
    const baseline = JSON.parse(readFileSync(file, "utf8")) as BaselineFile;
    expect(baseline.failures).toEqual([
      expect.objectContaining({ check: "response_schema_conformance", operations: ["listDomains"] }),
    ]);
    expect(baseline.failures[0]!.key).toBe(causeOf(written.report.failures[0]!));

    // Every list fails the accepted cause: all known, the run passes.
    const known = await run("list-error-as-integer", "--baseline", file);
    expect(known.code, known.stdout + known.stderr).toBe(0);
    expect(known.report.failures.map((f) => [f.operationId, f.known]).sort()).toEqual(
      LISTS.map((list) => [list, true]),
    );
    // A known cause is one counted line on the console; its block only with --verbose.
    expect(known.stdout).toMatch(/^ {2}~ 1 known cause \(in the baseline\), listed with --verbose$/m);
    expect(known.stdout).not.toContain("(known, in the baseline)");
    expect(known.stdout).toMatch(/Baseline .*: 1 known cause\(s\), 0 fixed, 0 new failure\(s\)/);
    expect(known.stderr).toMatch(/no new failures on links .*; 1 known cause \(in the baseline\)/);
    expect(known.junit).toMatch(/<skipped message="known cause \(baseline\): the body does not match/);

    // A new cause on another operation fails the run; the lists' cause is fixed there.
    const caught = await run(
      "wrong-content-type",
      "--operation",
      "getAccount",
      "--operation",
      "listDomains",
      "--baseline",
      file,
    );
    expect(caught.code).toBe(1);
    expect(caught.report.failures.filter((f) => !f.known).map((f) => f.check)).toEqual(["content_type_conformance"]);
    expect(caught.report.baseline?.fixed.map((f) => f.check)).toEqual(["response_schema_conformance"]);
    expect(caught.stderr).toMatch(/1 cause of failure across 1 operation .* on links/);
  });

  it("keeps matching the per-operation keys of files written before causes", () => {
    const failure: FailureRecord = {
      check: "positive_data_acceptance",
      operationId: "listDomains",
      message: "valid data was refused: 400",
      case: "random valid data",
      shrunk: false,
      occurrences: 2,
      request: { method: "GET", url: "http://127.0.0.1:1/api/domains", headers: {} },
      curl: "curl",
    };
    const file = join(dir, "old.json");
    const old: BaselineFile = {
      description: "written before causes",
      failures: [
        {
          key: "positive_data_acceptance | listDomains |  | valid data was refused: <n>",
          check: "positive_data_acceptance",
          operationId: "listDomains",
          where: "",
          reason: "valid data was refused: <n>",
        },
      ],
    };
    writeFileSync(file, JSON.stringify(old));
    const outcome = applyBaseline(file, old, [failure], () => true, 1);
    expect(failure.known).toBe(true);
    expect(outcome.known).toEqual([old.failures[0]!.key]);
    expect(outcome.fixed).toEqual([]);
  });
});
