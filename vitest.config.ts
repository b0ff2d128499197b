import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests start real servers on fixed loopback ports; files run one at a time so they never collide.
    fileParallelism: false,
  },
});
