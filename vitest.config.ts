import { defineConfig } from "vitest/config";
import LongFilesFirst from "./test/support/long-files-first.js";
import { MAX_WORKERS } from "./test/support/ports.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Files run in parallel: servers started in-process listen on port 0, and the fixed ports a CLI under test
    // needs come from test/support/ports.ts, one block per worker (MAX_WORKERS, more than the cores: the files wait a lot).
    fileParallelism: true,
    pool: "forks",
    maxWorkers: MAX_WORKERS,
    minWorkers: 1,
    sequence: { sequencer: LongFilesFirst },
  },
});
