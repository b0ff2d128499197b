// The run as one self-contained HTML page (--html): what a QA engineer attaches to a ticket. It holds the verdict, the
// coverage matrix as a heat map, the failures by cause (one block each, with its operations and one reproduction), the
// baseline or overlay the run was judged with, the warnings, observations and the resources the run left behind. No
// script, no external asset (a Content-Security-Policy forbids any request), so it opens offline. Every text is
// redacted by the run's secret filter before it is escaped, and the page is redacted again.
import { budgetWords } from "./budget-report.js";
import type { CoverageReport, KindCoverage, OperationCoverage } from "./coverage.js";
import { type RunReport, verdict } from "./report.js";
import { passiveHtml } from "./recorded-traffic-lines.js";
import { type Cause, causesHeadline, groupCauses, knownWhere } from "./causes.js";
import { entryOperations } from "./console-report.js";
import { type OverlayOutcome, overlayCauseLine, overlayCausesInOrder, overlaySummary } from "../overlay/outcome.js";

type Text = (text: string) => string;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1b1f24; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ccd; }
table { border-collapse: collapse; margin: 8px 0; } th, td { border: 1px solid #ccd; padding: 3px 6px; }
th { background: #f3f4f7; text-align: left; } th.kind { writing-mode: vertical-rl; transform: rotate(180deg); }
td.cell { text-align: center; min-width: 28px; font-size: 12px; }
.none { background: #eceef2; color: #889; } .passed { background: #9fd8a8; } .failed { background: #f2a0a0; }
.unjudged { background: #f5e29c; } .missing { color: #b00; }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
.failure { border-left: 4px solid #d33; padding-left: 10px; margin: 14px 0; } .known { border-color: #d9a400; }
.refusal img { max-width: 100%; border: 1px solid #ccd; }
.cause h3 { margin-bottom: 4px; } .operations, .breaks { margin: 2px 0; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 6px; }
@media (max-width: 640px) {
  body { margin: 12px; overflow-wrap: anywhere; }
  table { display: block; max-width: 100%; overflow-x: auto; }
}
`;

function cellClass(entry: KindCoverage | undefined): string {
  if (!entry) return "none";
  const tallies = Object.values(entry.checks);
  if (tallies.some((t) => t.failed > 0)) return "failed";
  return tallies.some((t) => t.passed > 0) ? "passed" : "unjudged";
}

function cell(op: OperationCoverage, kind: keyof OperationCoverage["kinds"], t: Text): string {
  const entry = op.kinds[kind];
  if (!entry) return `<td class="cell none" title="${t(`${op.operationId}: no ${kind} case sent`)}">·</td>`;
  const checks = Object.entries(entry.checks).map(([check, tally]) => `${check} ${tally.passed}✓ ${tally.failed}✗`);
  const title = [
    `${op.operationId}, ${kind}: ${entry.requests} request(s), statuses ${entry.statuses.join(", ") || "none"}`,
    ...checks,
  ].join("\n");
  return `<td class="cell ${cellClass(entry)}" title="${t(title)}">${entry.requests}</td>`;
}

function statusesCell(op: OperationCoverage, t: Text): string {
  const codes = op.documentedStatuses.map((code) =>
    op.documentedSeen.includes(code) ? t(code) : `<span class="missing" title="documented, not seen">${t(code)}</span>`,
  );
  const extra = op.undocumentedSeen.length ? ` + undocumented ${t(op.undocumentedSeen.join(", "))}` : "";
  return `<td>${op.documentedSeen.length}/${op.documentedStatuses.length}: ${codes.join(" ")}${extra}</td>`;
}

/** The planned cases of an operation the budget did not reach, by kind, with the checks that would have judged them. */
function leftOutCell(op: OperationCoverage, t: Text): string {
  const left = op.notReachedCases ?? [];
  if (left.length === 0) return "<td></td>";
  const items = left.map((c) => `<span title="${t(c.checks.join(", "))}">${t(`${c.kind} ×${c.cases}`)}</span>`);
  return `<td class="none">${items.join("<br>")}</td>`;
}

/** The matrix: one row per operation, one column per kind of case, each cell coloured by the checks that judged it. */
function coverageSection(coverage: CoverageReport, t: Text): string {
  const head = coverage.kinds.map((kind) => `<th class="kind">${t(kind)}</th>`).join("");
  const rows = coverage.byOperation.map((op) => {
    const name = `<th>${t(op.operationId)}<br><small>${t(`${op.method} ${op.path}`)}</small></th>`;
    if (!op.reached)
      return `<tr class="not-reached">${name}<td class="cell none" colspan="${coverage.kinds.length || 1}">not reached: ${t(op.notReached ?? "")}</td><td>0/${op.documentedStatuses.length}</td>${leftOutCell(op, t)}</tr>`;
    return `<tr class="reached">${name}${coverage.kinds.map((kind) => cell(op, kind, t)).join("")}${statusesCell(op, t)}${leftOutCell(op, t)}</tr>`;
  });
  return `<h2 id="coverage">Coverage</h2>
<p>Operations reached <strong>${coverage.operations.reached}/${coverage.operations.total}</strong>, documented statuses
seen <strong>${coverage.statuses.seen}/${coverage.statuses.documented}</strong>. Each cell: the requests of that kind of
case; hover for the statuses and the checks that judged them.</p>
<p class="legend"><span class="passed">checks passed</span><span class="failed">a check failed</span><span class="unjudged">sent, no check judged it</span><span class="none">not sent</span></p>
<table class="coverage"><tr><th>operation</th>${head || "<th>kinds of case</th>"}<th>documented statuses seen</th><th>not reached within the budget (not passed)</th></tr>
${rows.join("\n")}</table>`;
}

/** One cause: the check and reason, the operations it covers, what it breaks, and one reproduction. */
function causeBlock(cause: Cause, index: number, t: Text): string {
  const failure = cause.reproduction;
  const request = [
    `${failure.request.method} ${failure.request.url}`,
    ...Object.entries(failure.request.headers).map(([name, value]) => `${name}: ${value}`),
    ...(failure.request.body !== undefined ? ["", failure.request.body] : []),
  ].join("\n");
  const response = failure.response
    ? [
        `${failure.response.status}`,
        ...Object.entries(failure.response.headers).map(([name, value]) => `${name}: ${value}`),
        "",
        failure.response.body,
      ].join("\n")
    : `no response: ${failure.error ?? ""}`;
  const breaks = cause.breaks.length
    ? `<p>Breaks:</p><ul class="breaks">${cause.breaks.map((text) => `<li>${t(text)}</li>`).join("")}</ul>`
    : "";
  const operations = cause.operations
    .map((op) => {
      const results = cause.failures.filter((f) => f.operationId === op).reduce((n, f) => n + f.occurrences, 0);
      return `<li>${t(op)} <small>(${results} failing result${results === 1 ? "" : "s"})</small></li>`;
    })
    .join("");
  const exactly = failure.message === cause.message ? "" : `: ${t(failure.message)}`;
  return `<div class="failure cause${cause.known ? " known" : ""}" id="cause-${index + 1}">
<h3>${index + 1}. ${cause.known ? `(known, in the ${knownWhere(cause.failures)}) ` : ""}${t(cause.check)}: ${t(cause.message)}</h3>
<p>On ${cause.operations.length} operation${cause.operations.length === 1 ? "" : "s"}, ${cause.results} failing result${cause.results === 1 ? "" : "s"}:</p>
<ul class="operations">${operations}</ul>
${breaks}
<p>Reproduced on ${t(failure.operationId)}${exactly}. Case: ${t(failure.case)}${failure.occurrences > 1 ? ` (${failure.occurrences} failing requests)` : ""}${failure.shrunk ? ", shrunk" : ""}.</p>
<details><summary>Request and response</summary><pre>${t(request)}</pre><pre>${t(response)}</pre></details>
<p>Reproduce (secrets are read from environment variables):</p>
<pre class="reproduction">${t(failure.curl)}</pre>
</div>`;
}

function listSection(id: string, title: string, items: string[]): string {
  if (items.length === 0) return "";
  return `<h2 id="${id}">${title} (${items.length})</h2>\n<ul>${items.map((item) => `<li>${item}</li>`).join("\n")}</ul>`;
}

function baselineSection(report: RunReport, t: Text): string {
  const { file, known, fixed, unseen, seed } = report.baseline!;
  const items = [
    ...known.map((key) => `known: ${t(key)}`),
    ...fixed.map((entry) => `fixed: ${t(entry.key + entryOperations(entry))}`),
    ...unseen.map(
      (entry) =>
        `not seen with seed ${report.seed} (found by random data of seed ${seed}): ${t(entry.key + entryOperations(entry))}`,
    ),
  ];
  return listSection("baseline", `Baseline ${t(file)}`, items);
}

/** The overlay the run was judged with, and each of its causes: no longer seen (to remove), confirmed, not reached. */
function overlaySection(outcome: OverlayOutcome, t: Text): string {
  const items = overlayCausesInOrder(outcome).map((cause) => t(overlayCauseLine(cause)));
  return listSection("overlay", t(overlaySummary(outcome)), items);
}

function checksTable(report: RunReport, t: Text): string {
  const rows = report.checks
    .filter((c) => c.skipped !== `does not apply to ${report.api}`)
    .map((c) => {
      const state = c.couldNotRun
        ? `could not run: ${c.couldNotRun}`
        : c.skipped
          ? `skipped: ${c.skipped}`
          : c.failed > 0
            ? `failed ${c.failed} of ${c.passed + c.failed}`
            : c.passed > 0
              ? `passed ${c.passed}`
              : "not reached";
      const notReached = c.notReached ? `; not reached: ${c.notReached}` : "";
      const css = c.couldNotRun || c.failed > 0 ? "failed" : c.skipped || c.passed === 0 ? "none" : "passed";
      return `<tr><td>${t(c.name)}</td><td class="${css}">${t(state + notReached)}</td></tr>`;
    });
  return `<h2 id="checks">Checks</h2><table><tr><th>check</th><th>result</th></tr>${rows.join("\n")}</table>`;
}

/**
 * The pages checks counted as refusals, with their status, text and (--browser) screenshot as a data URI: the page
 * embeds it, so it still opens offline and its Content-Security-Policy allows images from data: only.
 */
function refusalPagesSection(report: RunReport, t: Text): string {
  const pages = report.refusalPages ?? [];
  if (pages.length === 0) return "";
  const blocks = pages.map(
    (p) =>
      `<div class="refusal"><h3>${t(`${p.check}: ${p.case}`)}</h3><p>${t(`${p.url}${p.status !== undefined ? `, status ${p.status}` : ""}`)}</p><pre>${t(p.text)}</pre>${p.screenshot ? `<img alt="${t(`screenshot of ${p.url}`)}" src="data:image/png;base64,${p.screenshot.replace(/[^A-Za-z0-9+/=]/g, "")}">` : ""}</div>`,
  );
  return `<h2 id="refusal-pages">Refusal pages: what the provider showed instead of redirecting</h2>
${blocks.join("\n")}`;
}

/** The HTML report; `redact` is the run's secret filter (every text passes through it, then the whole page). */
export function htmlReport(report: RunReport, redact: (text: string) => string): string {
  const t: Text = (text) => escapeHtml(redact(text));
  const { newFailures, couldNotRun, checkedNothing } = verdict(report);
  const failed = newFailures.length > 0 || couldNotRun.length > 0 || checkedNothing;
  const causes = groupCauses(report.api, report.failures);
  const newCauses = causes.filter((c) => !c.known).length;
  const summary = report.passive
    ? `${report.requests} recorded exchanges judged, nothing sent`
    : `${report.requests} requests, seed ${report.seed}, ${report.allowWrites ? "writes allowed" : "read-only"}${report.shard ? `, shard ${report.shard}` : ""}${report.interrupted ? ", INTERRUPTED" : ""}`;
  const warnings = report.warnings.map(
    (w) =>
      `${t(`${w.check} on ${w.operationId}: ${w.message}`)}${w.occurrences > 1 ? ` (${w.occurrences}×)` : ""}<br><small>assumption: ${t(w.assumption)}</small>`,
  );
  const observations = report.observations.map(
    (o) =>
      `${t(o.detail)}${o.count > 1 ? ` (${o.count}×)` : ""}, on ${t(o.operations.join(", "))}` +
      o.undocumented.map((entry) => `<br><small>sheds light on: ${t(entry)}</small>`).join(""),
  );
  const resources = report.resources.map(
    (r) =>
      `<span class="${r.state === "deleted" ? "passed" : "failed"}">${t(r.state === "deleted" ? "deleted" : "LEFT BEHIND")}</span> ${t(`${r.kind} ${r.id ?? "(no id)"} (by ${r.createdBy})${r.note ? `: ${r.note}` : ""}`)}`,
  );
  const page = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t(`contracts conform ${report.api}: ${failed ? "FAILED" : "passed"}`)}</title><style>${STYLE}</style></head>
<body>
<h1>contracts conform ${t(report.api)} at ${t(report.baseUrl)}: <span class="${failed ? "failed" : "passed"}">${failed ? "FAILED" : "passed"}</span></h1>
<p>${t(summary)}; ${t(report.startedAt)} to ${t(report.finishedAt)}. ${newCauses} new cause(s) of failure, ${couldNotRun.length} check(s) that could not run${checkedNothing ? ", nothing was checked" : ""}.</p>
${report.budget ? `<p id="budget">Budget: ${t(budgetWords(report.budget))}; ${report.budget.reached} of ${report.budget.planned} planned cases reached, ${report.budget.notReached} not reached within the budget (not passed).</p>` : ""}
${report.coverage ? coverageSection(report.coverage, t) : "<p>This report has no coverage section (written by an older version).</p>"}
<h2 id="failures">Failures by cause${causes.length ? `: ${t(causesHeadline(causes))}` : ""}</h2>
${causes.length ? causes.map((c, i) => causeBlock(c, i, t)).join("\n") : "<p>None.</p>"}
${report.baseline ? baselineSection(report, t) : ""}
${report.overlay ? overlaySection(report.overlay, t) : ""}
${listSection("warnings", "Warnings: a constraint marked x-assumption was broken", warnings)}
${refusalPagesSection(report, t)}
${listSection("observations", "Observations: gaps in the contract, never failures", observations)}
${listSection("resources", "Resources created by this run", resources)}
${passiveHtml(report.passive, t)}
${checksTable(report, t)}
</body></html>
`;
  return redact(page);
}
