// The suite's one reporter: Vitest's default reporter, quiet on what passed, so that a failure is what a reader sees.
// - A file whose tests all passed prints nothing (the default lists every file, and under each every test over 300 ms:
//   about 600 of the 680 lines of a green run). A file with a failure prints as the default prints it, when it ends:
//   its failing tests and their short errors; the full errors follow in Vitest's summary at the end.
// - Where the output is no terminal (CI logs, `npm test | tee`), a line every tenth of the files says how far the run
//   is, so that a log that stops growing shows a hang. On a terminal, Vitest's live summary says it.
// - At the very end, one plain closing line, `vitest: N passed, N failed[, N skipped]`, for CI tooling that reads a
//   run's last line; above it the failing tests by name, and the errors thrown outside any test (an unhandled
//   rejection, an uncaught exception in a worker), which fail the run although every test passed and which Vitest
//   prints on stderr, early, where a log cut to its tail loses them.
import type { RunnerTask, RunnerTestFile, TestModule, TestSpecification } from "vitest/node";
import { DefaultReporter } from "vitest/reporters";

const LISTED = 10;

function count(tasks: RunnerTask[], totals: { passed: number; skipped: number; failed: string[] }, path: string) {
  for (const task of tasks) {
    const name = `${path} > ${task.name}`;
    if (task.type === "suite") count(task.tasks, totals, name);
    else if (task.result?.state === "pass") totals.passed += 1;
    else if (task.result?.state === "fail") totals.failed.push(name);
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

const listed = (lines: string[], where: string) => [
  ...lines.slice(0, LISTED).map((line) => `- ${line}`),
  ...(lines.length > LISTED ? [`- and ${lines.length - LISTED} more (${where})`] : []),
];

export default class SummaryReporter extends DefaultReporter {
  private files = 0;
  private filesDone = 0;
  private filesFailed = 0;

  override onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    super.onTestRunStart(specifications);
    this.files = new Set(specifications.map((specification) => specification.moduleId)).size;
    this.filesDone = 0;
    this.filesFailed = 0;
  }

  protected override printTestModule(testModule: TestModule): void {
    const state = testModule.state();
    if (state === "queued" || state === "pending") return;
    this.filesDone += 1;
    if (state === "failed") {
      this.filesFailed += 1;
      super.printTestModule(testModule);
    }
    const step = Math.max(1, Math.ceil(this.files / 10));
    if (!this.isTTY && (this.filesDone % step === 0 || this.filesDone === this.files)) {
      const failed = this.filesFailed > 0 ? `, ${this.filesFailed} with failures` : "";
      this.log(`vitest: ${this.filesDone} of ${this.files} test files done${failed}`);
    }
  }

  override onFinished(
    files: RunnerTestFile[] = this.ctx.state.getFiles(),
    errors: unknown[] = this.ctx.state.getUnhandledErrors(),
  ): void {
    super.onFinished(files, errors);
    const totals = { passed: 0, skipped: 0, failed: [] as string[] };
    for (const file of files) count(file.tasks, totals, file.name);
    const lines: string[] = [];
    if (totals.failed.length > 0) {
      lines.push("", `vitest: ${totals.failed.length} failed:`, ...listed(totals.failed, "Vitest's summary above"));
    }
    if (errors.length > 0) {
      const described = errors.map(describeError);
      lines.push("", `vitest: ${errors.length} errors outside any test fail the run:`);
      lines.push(...listed(described, "Vitest's own output above has all"));
    }
    const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
    lines.push("", `vitest: ${totals.passed} passed, ${totals.failed.length} failed${skipped}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
