// The run's results as JUnit XML (--junit): one failing test case per cause of failure (causes.ts), naming the
// operations it covers, with one reproduction; one passing test case per check and operation that did not fail; a
// skipped one for a check that did not run or a known cause (baseline), a not-reached one for planned cases the budget
// left out, one per cause of the overlay (--overlay), and the run's seed, depth, coverage, budget and overlay as
// properties. Every text goes through the run's secret filter.
import { budgetWords } from "./budget-report.js";
import { type Cause, groupCauses, knownWhere } from "./causes.js";
import { describeCause } from "./console-report.js";
import type { RunReport } from "./report.js";
import { passiveJunitCases } from "./recorded-traffic-lines.js";
import { overlayAdvice, overlayCauseName, overlayCausesInOrder, overlaySummary } from "../overlay/outcome.js";

function xml(text: string): string {
  return (
    text
      .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!)
      // XML 1.0 has no way to write these control characters, so they are dropped.
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
  );
}

/** One JUnit test case: passed, or its error (could not run), its skip or its failure. */
export interface TestCase {
  classname: string;
  name: string;
  outcome?: CaseOutcome;
}

type CaseOutcome =
  | { type: "error"; message: string }
  | { type: "skipped"; message: string }
  | { type: "failure"; message: string; check: string; text: string };

function testcaseXml({ classname, name, outcome }: TestCase): string {
  const open = `    <testcase classname="${xml(classname)}" name="${xml(name)}"`;
  if (!outcome) return `${open}/>`;
  const message = xml(outcome.message);
  if (outcome.type === "error") return `${open}><error message="${message}" type="could-not-run"/></testcase>`;
  if (outcome.type === "skipped") return `${open}><skipped message="${message}"/></testcase>`;
  const failure = `<failure message="${message}" type="${xml(outcome.check)}">${xml(outcome.text)}</failure>`;
  return `${open}>\n      ${failure}\n    </testcase>`;
}

/** A check's test cases: one per operation it judged, or one that says why it has none (or not all). */
function checkCases(report: RunReport, check: RunReport["checks"][number]): TestCase[] {
  const classname = `conform.${report.api}`;
  if (check.couldNotRun)
    return [
      { classname, name: check.name, outcome: { type: "error", message: `could not run: ${check.couldNotRun}` } },
    ];
  const notReached: TestCase[] = check.notReached
    ? [
        {
          classname,
          name: `${check.name} (not reached)`,
          outcome: { type: "skipped", message: `not reached: ${check.notReached}` },
        },
      ]
    : [];
  if (check.notReached && check.passed + check.failed === 0) return notReached;
  if (check.skipped)
    return [...notReached, { classname, name: check.name, outcome: { type: "skipped", message: check.skipped } }];
  // A failing check on an operation is its cause's test case, not one of its own.
  return [
    ...notReached,
    ...Object.entries(check.operations)
      .filter(([, tally]) => tally.failed === 0)
      .map(([operationId]) => ({
        classname: `conform.${report.api}.${operationId}`,
        name: `${check.name} ${operationId}`,
      })),
  ];
}

/** A cause of failure: failed with the operations it covers and its reproduction, or known (skipped). */
function causeCase(report: RunReport, cause: Cause, index: number): TestCase {
  const on = cause.operations.length === 1 ? cause.operations[0]! : `${cause.operations.length} operations`;
  const testcase = { classname: `conform.${report.api}.causes`, name: `cause ${index + 1}: ${cause.check} on ${on}` };
  if (cause.known)
    return {
      ...testcase,
      outcome: { type: "skipped", message: `known cause (${knownWhere(cause.failures)}): ${cause.message}` },
    };
  const message = `${cause.message} (on ${cause.operations.join(", ")})`;
  return { ...testcase, outcome: { type: "failure", message, check: cause.check, text: describeCause(cause) } };
}

/**
 * The overlay's causes: a confirmed deviation passes; one no longer seen or not reached is skipped, saying which and
 * what to do. Neither is a failure: the run's verdict is the judge's, and it accepted the overlaid contract.
 */
function overlayCases(report: RunReport): TestCase[] {
  if (!report.overlay) return [];
  return overlayCausesInOrder(report.overlay).map((cause) => {
    const testcase: TestCase = { classname: `conform.${report.api}.overlay`, name: overlayCauseName(cause) };
    if (cause.state === "confirmed") return testcase;
    const advice = overlayAdvice(cause);
    return { ...testcase, outcome: { type: "skipped", message: `${cause.state}${advice ? `: ${advice}` : ""}` } };
  });
}

/** One test case per cause, then per check and operation that passed; a check that did not run is one test case. */
export function junitReport(report: RunReport, redact: (text: string) => string): string {
  const cases = [
    ...groupCauses(report.api, report.failures).map((cause, index) => causeCase(report, cause, index)),
    ...report.checks.flatMap((check) => checkCases(report, check)),
    ...passiveJunitCases(report.api, report.passive),
    ...overlayCases(report),
  ];
  const count = (type: string) => cases.filter((c) => c.outcome?.type === type).length;
  const seconds = (Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000;
  const totals =
    `tests="${cases.length}" failures="${count("failure")}" errors="${count("error")}" ` +
    `skipped="${count("skipped")}" time="${seconds}"`;
  const suite = xml(`conform ${report.api} ${report.baseUrl}`);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="contracts conform" ${totals}>`,
    `  <testsuite name="${suite}" ${totals} timestamp="${report.startedAt}">`,
    `    <properties>${junitProperties(report)}</properties>`,
    ...cases.map(testcaseXml),
    "  </testsuite>",
    "</testsuites>",
  ];
  return redact(lines.join("\n") + "\n");
}

/** The run's seed, depth and coverage as JUnit properties (CI dashboards show them next to the test cases). */
function junitProperties(report: RunReport): string {
  const properties: Array<[string, string | number]> = [
    ["seed", report.seed],
    ["max-examples", report.maxExamples],
  ];
  const coverage = report.coverage;
  if (coverage) {
    const missed = coverage.byOperation.filter((op) => !op.reached).map((op) => op.operationId);
    properties.push(
      ["coverage.operations-reached", `${coverage.operations.reached}/${coverage.operations.total}`],
      ["coverage.documented-statuses-seen", `${coverage.statuses.seen}/${coverage.statuses.documented}`],
      ["coverage.kinds-of-case", coverage.kinds.join(", ")],
      ["coverage.not-reached", missed.join(", ")],
    );
  }
  if (report.budget)
    properties.push(
      ["budget", budgetWords(report.budget)],
      ["budget.cases-planned", report.budget.planned],
      ["budget.cases-not-reached", report.budget.notReached],
    );
  if (report.overlay) properties.push(["overlay", overlaySummary(report.overlay)]);
  return properties.map(([name, value]) => `<property name="${xml(name)}" value="${xml(String(value))}"/>`).join("");
}
