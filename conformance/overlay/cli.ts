// `contracts overlay record <api> --from-json <report> [--output <file>]`: the deviations a conformance run proved,
// as an Overlay 1.0 document to review and keep beside the deployment; `contracts overlay check <file> [<api>]`
// validates one against the contract it extends; `contracts overlay diff <file> [<api>]` shows what it changes in the
// reference (diff.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { stringify } from "yaml";
import { parseApiName, UsageError } from "../../lib/cli.js";
import { loadBundle } from "../../lib/contract/index.js";
import { applyOverlay, loadOverlay, overlayProblems } from "../../lib/contract/overlay.js";
import type { RunReport } from "../report/report.js";
import { checkWritable } from "../finish-run.js";
import { overlayDiff } from "./diff.js";
import { overlayFromReport } from "./record.js";

export const OVERLAY_USAGE = `contracts overlay record <api> --from-json <report> [--output <file>]
  Write an OpenAPI Overlay 1.0 document of the deviations a conformance run's --json report proved: one cause per
  failing response_schema_conformance schema location; an answer of a status or media type an operation does not
  document (a 500 HTML page) as a response of the operation; and every other cause of failure (a 405 page without
  Allow to a method no operation documents, a server error, valid data refused) as an x-known-behaviours entry on
  each operation it failed on, which a run with --overlay reports as known. Each carries the check, the operations, an exchange (redacted as in the report) and the
  seed sentence it departs from in x- fields. Record from a run that reached its whole plan (contracts conform
  --max-requests none, which says how long that takes at the API's rate limit; record says when a run did not).
  Review it, commit it beside the deployment's configuration and pass it with --overlay to conform, proxy, mock and
  npm run generate.
  --from-json <report>  the report (contracts conform ... --json <report>)
  --output <file>       where to write it (default: standard output); YAML, or JSON when the name ends in .json

contracts overlay check <file> [<api>]
  Validate an overlay against Overlay 1.0's schema and apply it to the contract it extends (or <api>'s): every
  action's target must select something.

contracts overlay diff <file> [<api>]
  Show what an overlay changes in the reference: the operations whose requests or answers change, then each changed
  place of the contract (a JSON Pointer) added (+), removed (-) or changed (~), with its value before and after.
`;

export async function runOverlayCommand(argv: string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === "--help" || subcommand === "-h") {
    process.stdout.write(OVERLAY_USAGE);
    return subcommand === undefined ? 2 : 0;
  }
  if (subcommand === "check" || subcommand === "diff") return readCommand(subcommand, rest);
  if (subcommand !== "record")
    throw new UsageError(
      `unknown overlay command "${subcommand}"; expected record, check or diff (contracts overlay --help)`,
    );
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      "from-json": { type: "string" },
      output: { type: "string", short: "o" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(OVERLAY_USAGE);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError("expected exactly one API: contracts overlay record <api> --from-json <report>");
  const api = parseApiName(positionals[0]!);
  const file = values["from-json"];
  if (!file) throw new UsageError("--from-json <report> is required: the --json report of a conformance run");
  checkWritable(values.output, "--output");
  const report = readReport(file);
  if (report.api !== api) throw new UsageError(`--from-json ${file} is a report of ${report.api}, not ${api}`);
  const overlay = overlayFromReport(report, file);
  // A cause's first action carries its evidence: the check it failed, or an advertised endpoint's discovery member.
  const causes = overlay.actions.filter((action) => action["x-check"] || action["x-discovery-member"]).length;
  // A deviation on a case the run did not reach is not in the report, so not in the overlay either.
  const budget = report.budget;
  if (budget && budget.notReached > 0)
    process.stderr.write(
      `contracts overlay record: the run reached ${budget.reached} of its ${budget.planned} planned cases; a deviation on the other ${budget.notReached} is not recorded. Record from a run that reaches them all (--max-requests none: the whole plan, at the API's rate limit).\n`,
    );
  if (overlay.actions.length === 0) {
    process.stderr.write(`contracts overlay record: the report proves no deviation on ${api}: nothing to record\n`);
    return 1;
  }
  // What is written must be an overlay the other commands accept.
  const problems = overlayProblems(overlay);
  if (problems.length > 0) throw new Error(`the recorded overlay is not valid: ${problems.join("; ")}`);
  await applyOverlay(loadBundle(api), overlay, "the recorded overlay");
  const text = values.output?.endsWith(".json")
    ? `${JSON.stringify(overlay, null, 2)}\n`
    : stringify(overlay, { lineWidth: 0, aliasDuplicateObjects: false });
  if (values.output) writeFileSync(values.output, text);
  else process.stdout.write(text);
  process.stderr.write(
    `contracts overlay record: ${causes} deviation(s) of ${api} in ${overlay.actions.length} action(s)${values.output ? ` written to ${values.output}` : ""}; review them before you commit the overlay\n`,
  );
  return 0;
}

function readReport(file: string): RunReport {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`--from-json ${file}: cannot read the file`);
  }
  try {
    const report = JSON.parse(text) as RunReport;
    if (!report || typeof report !== "object" || !Array.isArray(report.failures) || typeof report.api !== "string")
      throw new Error("no api or failures");
    return report;
  } catch (error) {
    throw new UsageError(`--from-json ${file}: not a conformance JSON report (${(error as Error).message})`);
  }
}

/** `check` and `diff`: both load the overlay (validated, applied) and print what they say of it. */
async function readCommand(subcommand: "check" | "diff", argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: {} });
  const [file, apiName] = positionals;
  if (!file || positionals.length > 2) throw new UsageError(`expected: contracts overlay ${subcommand} <file> [<api>]`);
  const loaded = await loadOverlay(file, apiName === undefined ? undefined : parseApiName(apiName));
  process.stdout.write(
    subcommand === "diff"
      ? overlayDiff(loaded)
      : `${file}: a valid Overlay ${loaded.overlay.overlay} document; its ${loaded.overlay.actions.length} action(s) apply to the ${loaded.api} contract\n`,
  );
  return 0;
}
