// Servers of the conformance tests (fault servers, independent servers), tied to the test that starts them.
import type { TestContext } from "vitest";
import type { RunningServer } from "../../conformance/fault-servers/http.js";

/** `server`, closed when the test that started it ends. */
export function closedAfter<T extends RunningServer>(server: T, { onTestFinished }: TestContext): T {
  onTestFinished(() => server.close());
  return server;
}
