// Cleanups that run when each test file ends (test/support/setup.ts calls them). A vitest worker runs file after file
// in one process (isolate off in vitest.config.ts), where a support module is loaded once: an afterAll at its top
// level would be registered for the first of those files only.
const cleanups = new Set<() => unknown>();

/** `cleanup` runs at the end of every test file from now on (a support module calls this once, when it loads). */
export function afterEachFile(cleanup: () => unknown): void {
  cleanups.add(cleanup);
}

export async function runFileCleanups(): Promise<void> {
  await Promise.all([...cleanups].map((cleanup) => cleanup()));
}
