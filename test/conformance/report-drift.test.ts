// The report of a links deployment that drifted from its docs in several ways at once (the `drifted` fault server:
// an integer `error` on every list, beside a string `perpage` on the domains and a string `maxpage` on the campaigns;
// a 405 HTML page without Allow for an undocumented method). A cause is a behaviour: the integer `error` is one cause
// on the five lists, not one block per list body that also lists its other broken fields. Every output numbers the
// causes alike (console, JSON, HTML, JUnit, the progress on stderr), and with a baseline the new causes open the
// console report, the known ones one counted line. Last, the CLI as users run it on the drifted links oracle (the
// independent server written from the seed, drifted as a real product is: conformance/oracle/links-drift.ts).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { type LinksServer, startLinksServer } from "../../conformance/fault-servers/links.js";
import type { BaselineFile } from "../../conformance/report/baseline.js";
import type { CauseEntry, RunReport } from "../../conformance/report/report.js";
import { conformInProcess } from "../support/conform.js";
import { conformWithCli } from "../support/conform-cli.js";
import { driftedLinksFixture } from "../support/drifted-links.js";

const env = { ...FAULT_SERVER_CREDENTIALS };
const dir = mkdtempSync(join(tmpdir(), "report-drift-"));
const LISTS = ["listCampaigns", "listChannelItems", "listChannels", "listDomains", "listOverlays"];
let server: LinksServer;
beforeAll(async () => {
  server = await startLinksServer({ token: env.LINKS_TOKEN, fault: "drifted", rateLimit: { windowMs: 1000 } });
});
afterAll(async () => {
  await server.close();
});

/** A whole run on the drifted server: every operation, enough budget to reach the 405 cases. */
async function run(...more: string[]) {
  const html = join(dir, `${Math.random().toString(36).slice(2)}.html`);
  const args = ["links", "--base-url", server.url, "--max-examples", "3", "--seed", "7", "--rate-limit", "1000/s"];
  const result = await conformInProcess(
    [...args, "--allow-writes", "--max-requests", "400", "--html", html, ...more],
    env,
    [],
    { junit: true },
  );
  const causes = (result.report as RunReport & { causes: CauseEntry[] }).causes;
  return { ...result, causes, html: readFileSync(html, "utf8"), junit: readFileSync(result.files.junit!, "utf8") };
}

type Numbered = Array<[number, string]>;
const numbered = (text: string, pattern: RegExp): Numbered =>
  [...text.matchAll(pattern)].map((m) => [Number(m[1]), m[2]!]);

/** Each output's causes as [number, check], in the order it shows them. */
function numberings(result: Awaited<ReturnType<typeof run>>) {
  const details = result.stdout.split("\nFailures by cause:")[1] ?? "";
  return {
    json: result.causes.map((c): [number, string] => [c.number, c.check]),
    consoleTop: numbered(result.stdout.split("\n\n")[0]!, /^ {2}(\d+)\. (?:~ )?(\w+) on /gm),
    consoleDetails: numbered(details, /^(\d+)\. (?:\(known, in the baseline\) )?(\w+): /gm),
    html: numbered(result.html, /<h3>(\d+)\. (?:\(known, in the baseline\) )?(\w+): /g),
    junit: numbered(result.junit, /name="cause (\d+): (\w+) on /g),
    progress: numbered(result.stderr, /^ {2}✗ cause (\d+): (\w+) on /gm),
  };
}

/**
 * `5 causes of failure across 9 operations (68 failing results)[; 3 known causes (in the baseline)]`, from a line that
 * may name the API between the two (the run's last line: `... on links; 3 known ...`).
 */
const COUNTS =
  /(?:\d+ causes? of failure across \d+ operations? \(\d+ failing results?\)|no new causes of failure)(?: on \w+)?(?:; \d+ known causes? \(in the baseline\))?/;
const countsIn = (line: string | undefined) => COUNTS.exec(line ?? "")?.[0].replace(/ on \w+/, "");

describe("a links deployment drifted from its docs", () => {
  it("has one cause per behaviour, numbered alike by the console, JSON, HTML, JUnit and the progress line", async () => {
    const result = await run();
    expect(result.code, result.output).toBe(1);
    // One block names the integer `error`, not one per list body that breaks another field beside it.
    const details = result.stdout.split("\nFailures by cause:")[1] ?? "";
    expect(details.match(/^\d+\. response_schema_conformance: .*\/error must be string/gm)).toHaveLength(1);
    const place = (c: CauseEntry) => [c.check, c.key.split(" | ")[2], c.operations];
    // The integer `error` is one cause on the five lists, whatever else each list body breaks beside it.
    expect(result.causes.filter((c) => c.check === "response_schema_conformance").map(place)).toEqual([
      ["response_schema_conformance", "/error type+const", LISTS],
      ["response_schema_conformance", "/data/perpage type", ["listDomains"]],
      ["response_schema_conformance", "/data/maxpage type", ["listCampaigns"]],
    ]);
    const [error, perpage, maxpage] = result.causes;
    expect(error!.message).not.toMatch(/perpage|maxpage/);
    expect(perpage!.message).not.toMatch(/\/error/);
    expect(maxpage!.message).not.toMatch(/\/error/);
    // The 405 HTML page without Allow on every path: one cause per check.
    expect(result.causes.map((c) => c.check).slice(3)).toEqual(["unsupported_method", "allow_header"]);
    expect(result.causes).toHaveLength(5);

    const all = numberings(result);
    const expected = all.json;
    expect(expected.map(([n]) => n)).toEqual([1, 2, 3, 4, 5]);
    for (const [output, shown] of Object.entries(all)) expect(shown, output).toEqual(expected);
    // The progress names where it found each cause first: one of its operations.
    for (const [, number, operation] of result.stderr.matchAll(/✗ cause (\d+): \w+ on (\w+):/g))
      expect(result.causes[Number(number) - 1]!.operations).toContain(operation);
    expect(result.stderr).toMatch(/\[links\] done · \d+ requests · \d+ failure\(s\) of 5 cause\(s\)\n/);

    // The verdict line, the heading and the run's last line count alike.
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^conform links: FAILED: 5 causes of failure across 9 operations/);
    const heading = lines.find((line) => line.startsWith("Failures by cause: "));
    const last = result.stderr.trimEnd().split("\n").pop();
    expect(countsIn(heading)).toBe(countsIn(lines[0]));
    expect(countsIn(last)).toBe(countsIn(lines[0]));

    // Observations: one line per kind with its counts; each one, with what it sheds light on, in the HTML report.
    const kinds = new Set(result.report.observations.map((o) => o.kind)).size;
    expect(result.report.observations.length).toBeGreaterThan(kinds);
    const observations = result.stdout.split("\nObservations")[1]!.split("\n\n")[0]!;
    expect(observations.match(/^ {2}• /gm)).toHaveLength(kinds);
    expect(observations).toMatch(/^ {2}• 3 undocumented statuses on \d+ operations; sheds light on 2 x-undocumented/m);
    expect(result.stdout).not.toMatch(/^ +sheds light on: /m);
    expect(result.html.match(/sheds light on: /g)?.length).toBe(
      result.report.observations.reduce((n, o) => n + o.undocumented.length, 0),
    );
  });

  it("with a baseline opens on the new causes; the known ones are one counted line, in full with --verbose", async () => {
    const file = join(dir, "drifted.json");
    const written = await run("--baseline", file, "--update-baseline");
    expect(written.code, written.output).toBe(0);
    // Two of the five causes are not in the baseline: new in the next run.
    const baseline = JSON.parse(readFileSync(file, "utf8")) as BaselineFile;
    const isNew = (key: string) => key.includes("/data/perpage") || key.startsWith("allow_header");
    expect(baseline.failures.filter((f) => isNew(f.key))).toHaveLength(2);
    writeFileSync(file, JSON.stringify({ ...baseline, failures: baseline.failures.filter((f) => !isNew(f.key)) }));

    const result = await run("--baseline", file);
    expect(result.code, result.output).toBe(1);
    // The first screen: the verdict, a line per new cause, one line for the known ones, then both new causes in full.
    const screen = result.stdout.split("\n").slice(0, 30).join("\n");
    const [verdict, first, second, known] = screen.split("\n");
    expect(verdict).toMatch(/^conform links: FAILED: 2 causes of failure across 9 operations .*; 3 known causes/);
    expect(first).toMatch(/^ {2}1\. response_schema_conformance on listDomains: .*\/data\/perpage must be integer$/);
    expect(second).toMatch(/^ {2}2\. allow_header on 9 operations: /);
    expect(known).toBe("  ~ 3 known causes (in the baseline), listed with --verbose");
    expect(screen).toMatch(/^1\. response_schema_conformance: .*\/data\/perpage must be integer$/m);
    expect(screen).toMatch(/^2\. allow_header: /m);
    expect(result.stdout).not.toContain("(known, in the baseline)");
    expect(result.stdout.match(/reproduce:/g)).toHaveLength(2);

    expect(result.causes.map((c) => [c.number, c.known, c.check])).toEqual([
      [1, false, "response_schema_conformance"],
      [2, false, "allow_header"],
      [3, true, "response_schema_conformance"],
      [4, true, "response_schema_conformance"],
      [5, true, "unsupported_method"],
    ]);
    expect(result.causes[0]!.key).toContain("/data/perpage");

    const all = numberings(result);
    expect(all.consoleTop).toEqual(all.json.slice(0, 2));
    expect(all.consoleDetails).toEqual(all.json.slice(0, 2));
    expect(all.html).toEqual(all.json);
    expect(all.junit).toEqual(all.json);
    // The progress numbers the new causes as the report does and marks the known ones as it does, never with ✗.
    expect(all.progress).toEqual(all.json.slice(0, 2));
    expect(result.stderr.match(/^ {2}~ known cause \(in the baseline\): /gm)).toHaveLength(3);
    expect(result.stderr).toMatch(/failure\(s\) of 2 new and 3 known cause\(s\)\n/);

    const lines = result.stdout.split("\n");
    const heading = lines.find((line) => line.startsWith("Failures by cause: "));
    const last = result.stderr.trimEnd().split("\n").pop();
    expect(countsIn(lines[0])).toMatch(/^2 causes .*; 3 known causes \(in the baseline\)$/);
    expect(countsIn(heading)).toBe(countsIn(lines[0]));
    expect(countsIn(last)).toBe(countsIn(lines[0]));

    // --verbose: the known causes in full, numbered as before, and every observation with what it sheds light on.
    const verbose = await run("--baseline", file, "--verbose");
    const shown = numberings(verbose);
    expect(shown.consoleTop).toEqual(shown.json);
    expect(shown.consoleDetails).toEqual(shown.json);
    expect(verbose.stdout.match(/^\d+\. \(known, in the baseline\) /gm)).toHaveLength(3);
    const observations = verbose.stdout.split("\nObservations")[1]!.split("\n\n")[0]!;
    expect(observations.match(/^ {2}• /gm)).toHaveLength(verbose.report.observations.length);
    expect(verbose.stdout).toMatch(/^ +sheds light on: /m);
  });
});

describe("on the drifted links oracle, the CLI without baseline or overlay", () => {
  const oracle = driftedLinksFixture();

  it("gives at most one cause per behaviour, and its first screen (80 lines) holds the verdict and every cause", async () => {
    const server = await oracle.drifted();
    const run = await conformWithCli(oracle.args(server.url, "--max-requests", "none"), oracle.env);
    expect(run.code, run.output).toBe(1);
    const causes = (run.report as RunReport & { causes: CauseEntry[] }).causes;
    expect(causes.length).toBeGreaterThan(5);
    // The behaviours of the real product's code beside the shapes: the router's 405 page without Allow, its 500 page
    // to a path id that is not a number, and the `{}` campaign add (valid by the seed) refused.
    const on = (check: string) => causes.filter((cause) => cause.check === check).flatMap((cause) => cause.operations);
    expect(on("positive_data_acceptance")).toEqual(["addCampaign"]);
    expect(run.stdout).toContain("breaks: links seed: | POST | /api/campaign/add | body: name (string, optional)");
    expect(on("not_a_server_error")).toEqual(["listChannelItems"]);
    expect(on("unsupported_method")).toContain("listOverlays");
    expect(on("allow_header")).toContain("listOverlays");
    const screen = run.stdout.split("\n").slice(0, 80);
    expect(screen[0]).toMatch(new RegExp(`^conform links: FAILED: ${causes.length} causes of failure across `));
    for (const cause of causes) {
      const where = cause.operations.length === 1 ? cause.operations[0] : `${cause.operations.length} operations`;
      const line = `  ${cause.number}. ${cause.check} on ${where}: `;
      expect(
        screen.filter((shown) => shown.startsWith(line)),
        line,
      ).toHaveLength(1);
    }
    // A behaviour: the check, the status and media type of the answer, the schema location it breaks or the header
    // it lacks. Each is the evidence of one cause only.
    const behaviours = new Map<string, number>();
    for (const failure of run.report.failures) {
      const cause = causes.find((each) => each.key === failure.key);
      if (!cause) throw new Error(`failure ${failure.key} is in no cause of the report`);
      const behaviour = [
        failure.check,
        failure.response?.status,
        failure.response?.headers["content-type"]?.split(";")[0],
        failure.place?.location ?? /without an? ([\w-]+) header/.exec(failure.message)?.[1],
      ].join(" | ");
      expect(behaviours.get(behaviour) ?? cause.number, `${behaviour} in causes ${cause.number} and another`).toBe(
        cause.number,
      );
      behaviours.set(behaviour, cause.number);
    }
    expect(new Set(behaviours.values()).size).toBe(causes.length);
  });
});
