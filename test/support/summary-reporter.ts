// Prints one plain closing line, `vitest: N passed, N failed[, N skipped]`, after vitest's own summary, so that CI
// tooling that reads a run's last line counts our tests without knowing vitest's format.
// Errors thrown outside any test (an unhandled rejection, an uncaught exception in a worker) fail the run although
// every test passed; vitest prints them on stderr, early, where a CI log cut to its tail loses them. They are
// repeated here, on stdout, just above the closing line, so that the reason for a red run is in the tail.
import type { Reporter, RunnerTask, RunnerTestFile } from "vitest";

function count(tasks: RunnerTask[], totals: { passed: number; failed: number; skipped: number }): void {
  for (const task of tasks) {
    if (task.type === "suite") count(task.tasks, totals);
    else if (task.result?.state === "pass") totals.passed += 1;
    else if (task.result?.state === "fail") totals.failed += 1;
    else totals.skipped += 1;
  }
}

/** A few lines that say what an error outside a test was, in which file and test it arose, and where it was thrown. */
function describeError(error: unknown): string {
  if (!(error instanceof Object)) return String(error);
  const fields = error as Record<string, unknown>;
  const { name, message, stack, type, VITEST_TEST_PATH: file, VITEST_TEST_NAME: test } = fields;
  const where = [type, file, test].filter((part) => typeof part === "string").join(", ");
  const frames = typeof stack === "string" ? stack.split("\n").filter((line) => /^\s+at /.test(line)) : [];
  const heading = `${typeof name === "string" ? name : "Error"}: ${String(message)}${where ? ` (${where})` : ""}`;
  return [heading, ...frames.slice(0, 4).map((frame) => frame.trim())].join("\n    ");
}

export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = [], errors: unknown[] = []): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    count(files, totals);
    if (errors.length > 0) {
      const listed = errors.slice(0, 10).map((error) => `- ${describeError(error)}`);
      const more = errors.length > 10 ? [`- and ${errors.length - 10} more (vitest's own output above has all)`] : [];
      process.stdout.write(
        `\nvitest: ${errors.length} errors outside any test fail the run:\n${[...listed, ...more].join("\n")}\n`,
      );
    }
    const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
    process.stdout.write(`\nvitest: ${totals.passed} passed, ${totals.failed} failed${skipped}\n`);
  }
}
