// `contracts diff <old> <new>`: classifies every change between two versions of a contract; exit code 1 on a breaking
// one.
import { parseArgs } from "node:util";
import { UsageError } from "../cli.js";
import { diffDocuments } from "./compare.js";
import { loadSpecFile } from "./load.js";
import { formatReport } from "./report.js";

export const DIFF_USAGE = `contracts diff <old> <new> [--json]
  Compare two versions of an OpenAPI 3 document (JSON or YAML with local $refs, e.g. a bundle from
  generated/openapi/) and classify every change as breaking or not for the API's users.
  Exit code 0: no breaking change; 1: at least one breaking change; 2: bad arguments or unreadable files.
  --json   print the result as JSON (rule, breaking, direction, operations, where, message, pointer)
`;

export function runDiffCommand(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    process.stdout.write(DIFF_USAGE);
    return 0;
  }
  if (positionals.length !== 2)
    throw new UsageError(
      `diff takes two files, <old> and <new>; got ${positionals.length}. Usage: ${DIFF_USAGE.split("\n")[0]}`,
    );
  const [oldFile, newFile] = positionals as [string, string];
  const result = diffDocuments(loadSpecFile(oldFile), loadSpecFile(newFile));
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : formatReport(result));
  return result.breaking > 0 ? 1 : 0;
}
