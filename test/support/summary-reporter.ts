// Prints one plain closing line, `vitest: N passed, N failed[, N skipped]`, after vitest's own summary, so that CI
// tooling that reads a run's last line counts our tests without knowing vitest's format.
import type { Reporter, RunnerTask, RunnerTestFile } from "vitest";

function count(tasks: RunnerTask[], totals: { passed: number; failed: number; skipped: number }): void {
  for (const task of tasks) {
    if (task.type === "suite") count(task.tasks, totals);
    else if (task.result?.state === "pass") totals.passed += 1;
    else if (task.result?.state === "fail") totals.failed += 1;
    else totals.skipped += 1;
  }
}

export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = []): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    count(files, totals);
    const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
    process.stdout.write(`\nvitest: ${totals.passed} passed, ${totals.failed} failed${skipped}\n`);
  }
}
