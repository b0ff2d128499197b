// The run's results as JUnit XML (--junit): one test case per check and operation, a skipped one for a check that did
// not run, a not-reached one for planned cases the budget left out, and the run's seed, depth, coverage and budget as
// properties. Every text goes through the run's secret filter.
import { budgetWords } from "./budget-report.js";
import { describeFailure } from "./console-report.js";
import type { RunReport } from "./report.js";
import { passiveJunitCases } from "../passive/report-lines.js";

function xml(text: string): string {
  return (
    text
      .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!) // XML 1.0 has no way to write these control characters, so they are dropped.
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
  );
}

/** One test case per check and operation; a check that did not run is one skipped test case. */
export function junitReport(report: RunReport, redact: (text: string) => string): string {
  const cases: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  let errors = 0;
  const seconds = (Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000;
  for (const check of report.checks) {
    if (check.couldNotRun) {
      tests += 1;
      errors += 1;
      cases.push(
        `    <testcase classname="${xml(`conform.${report.api}`)}" name="${xml(check.name)}"><error message="${xml(`could not run: ${check.couldNotRun}`)}" type="could-not-run"/></testcase>`,
      );
      continue;
    }
    if (check.notReached) {
      tests += 1;
      skipped += 1;
      cases.push(
        `    <testcase classname="${xml(`conform.${report.api}`)}" name="${xml(`${check.name} (not reached)`)}"><skipped message="${xml(`not reached: ${check.notReached}`)}"/></testcase>`,
      );
      if (check.passed + check.failed === 0) continue;
    }
    if (check.skipped) {
      tests += 1;
      skipped += 1;
      cases.push(
        `    <testcase classname="${xml(`conform.${report.api}`)}" name="${xml(check.name)}"><skipped message="${xml(check.skipped)}"/></testcase>`,
      );
      continue;
    }
    for (const [operationId, tally] of Object.entries(check.operations)) {
      tests += 1;
      const name = `${check.name} ${operationId}`;
      const failure = report.failures.find((f) => f.check === check.name && f.operationId === operationId);
      if (tally.failed > 0 && failure?.known) {
        skipped += 1;
        cases.push(
          `    <testcase classname="${xml(`conform.${report.api}.${operationId}`)}" name="${xml(name)}"><skipped message="${xml(`known failure (baseline): ${failure.message}`)}"/></testcase>`,
        );
      } else if (tally.failed > 0 && failure) {
        failures += 1;
        cases.push(
          `    <testcase classname="${xml(`conform.${report.api}.${operationId}`)}" name="${xml(name)}">\n      <failure message="${xml(failure.message)}" type="${xml(check.name)}">${xml(describeFailure(failure))}</failure>\n    </testcase>`,
        );
      } else
        cases.push(`    <testcase classname="${xml(`conform.${report.api}.${operationId}`)}" name="${xml(name)}"/>`);
    }
  }
  const gaps = passiveJunitCases(report.api, report.passive, xml);
  tests += gaps.length;
  skipped += gaps.length;
  cases.push(...gaps);
  return redact(
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contracts conform" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds}">\n  <testsuite name="${xml(`conform ${report.api} ${report.baseUrl}`)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds}" timestamp="${report.startedAt}">\n    <properties>${junitProperties(report)}</properties>\n${cases.join("\n")}\n  </testsuite>\n</testsuites>\n`,
  );
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
  return properties.map(([name, value]) => `<property name="${xml(name)}" value="${xml(String(value))}"/>`).join("");
}
