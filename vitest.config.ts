import { stripVTControlCharacters } from "node:util";
import { configDefaults, defineConfig } from "vitest/config";
import LongFilesFirst from "./test/support/long-files-first.js";
import { MAX_WORKERS } from "./test/support/ports.js";

/** What only proves a release (test/release/: the packages installed from their tarballs, on both Node lines, the
 * proofs over 20 seeds) runs with
 * `npm run test:release`, which `npm test` calls after the rest where CI=true (README, "Quick start"): after, so that
 * its long runs do not load the machine under the suite's own. */
const RELEASE_PROOFS = Boolean(process.env.RELEASE_PROOFS);

/** oidc-provider's development notices, which it prints with console.warn and console.info
 * (node_modules/oidc-provider/lib/helpers/attention.js, colored on a terminal) when it runs on its defaults: its
 * in-memory adapter, its signing keys, its devInteractions, its default TTLs and renderError. The tests use those
 * defaults on purpose (test/support/stock-oidc-provider.ts is stock by design, and the sandbox in mock/sandbox keeps
 * them too), so the 56 lines each run said nothing a reader could act on. Only lines that are all such notices are
 * dropped; anything else a test logs, with them or not, is still printed. `npm run sandbox` still prints them. */
const OIDC_PROVIDER_NOTICE = /^oidc-provider (?:WARNING|NOTICE): /;
const isOidcProviderNotice = (log: string) => {
  const lines = stripVTControlCharacters(log)
    .split("\n")
    .filter((line) => line !== "");
  return lines.length > 0 && lines.every((line) => OIDC_PROVIDER_NOTICE.test(line));
};

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(RELEASE_PROOFS ? [] : ["test/release/**"])],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    // Vitest's default reporter, quiet on what passed (the file says how); what a passing test logs is dropped too
    // (`passed-only`: a failing test's logs are printed with its failure). The release proofs keep their logs: they
    // print what they measured (the installed packages' sizes) for the release notes.
    reporters: ["./test/support/summary-reporter.ts"],
    silent: RELEASE_PROOFS ? false : "passed-only",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Files run in parallel: servers started in-process listen on port 0, and the fixed ports a CLI under test
    // needs come from test/support/ports.ts, one block per worker (MAX_WORKERS, more than the cores: the files wait a
    // lot).
    fileParallelism: true,
    pool: "forks",
    // A worker runs file after file in one process: the modules the files share (the contracts and their compiled
    // validators, the runner, Prism, playwright) load once per worker, not once per file (about 40 of 250 CPU-s).
    // Each file still starts its own servers and closes them; no test changes state that another file reads.
    isolate: false,
    maxWorkers: MAX_WORKERS,
    // Not fewer: with isolate off, vitest 3.2 ends an idle-looking worker while its file is still being collected
    // ("Terminating worker thread", vitest-dev/vitest#8133); with every worker kept, none is ended early.
    minWorkers: MAX_WORKERS,
    sequence: { sequencer: LongFilesFirst },
    onConsoleLog: (log) => (isOidcProviderNotice(log) ? false : undefined),
  },
});
