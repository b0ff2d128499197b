// A links deployment that drifted from its docs, as the independent links server drifts when asked
// (conformance/oracle/links-drift.ts), with the overlay `contracts overlay record` writes from its first run: the
// fixture of the overlay tests (test/conformance/overlay*.test.ts). Each test file that calls it records its own.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { parse as parseYaml } from "yaml";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { DEPLOYMENT_DRIFT, type OracleLinksOptions, startOracleLinksServer } from "../../conformance/oracle/links.js";
import type { OverlayDocument } from "../../lib/contract/overlay.js";
import { conformInProcess } from "./conform.js";
import { runContracts } from "./processes.js";

export interface RecordedOverlay {
  firstRun: Awaited<ReturnType<typeof conformInProcess>>;
  overlay: OverlayDocument;
  recordOutput: string;
}

export function driftedLinksFixture() {
  const env = { ...FAULT_SERVER_CREDENTIALS };
  const dir = mkdtempSync(join(tmpdir(), "overlay-test-"));
  const overlayFile = join(dir, "links.overlay.yaml");
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  async function drifted(options: Omit<OracleLinksOptions, "token" | "windowMs"> = {}): Promise<RunningServer> {
    const server = await startOracleLinksServer({
      token: env.LINKS_TOKEN,
      windowMs: 1000,
      drift: DEPLOYMENT_DRIFT,
      ...options,
    });
    servers.push(server);
    return server;
  }

  const args = (url: string, ...more: string[]) => [
    "links",
    ...["--base-url", url, "--seed", "5", "--max-examples", "4", "--rate-limit", "1000/s", "--allow-writes"],
    ...more,
  ];

  let state: RecordedOverlay | undefined;
  /** The first run on the drifted deployment, over its whole plan as the guide records, and its overlay. */
  async function recorded(): Promise<RecordedOverlay> {
    const firstRun = await conformInProcess(args((await drifted()).url, "--max-requests", "none"), env);
    const record = runContracts(["overlay", "record", "links", "--from-json", firstRun.files.json, "-o", overlayFile]);
    const code = await record.exit;
    const recordOutput = `${record.stdout()}\n${record.stderr()}`;
    if (code !== 0) throw new Error(`overlay record exited ${code}: ${recordOutput}`);
    state = { firstRun, overlay: parseYaml(readFileSync(overlayFile, "utf8")) as OverlayDocument, recordOutput };
    return state;
  }

  const causes = () => state!.overlay.actions.filter((action) => action["x-check"]);
  return {
    env,
    dir,
    overlayFile,
    drifted,
    args,
    recorded,
    /** The overlay's causes: the actions that carry `x-check` and the evidence. */
    causes,
    /** The causes of a wrong shape, recorded as schema changes. */
    shapes: () => causes().filter((action) => action["x-schema-location"]),
    /** The answers of a status or media type the contract does not document, recorded as responses. */
    responses: () => causes().filter((action) => action["x-response"]),
    /** The causes OpenAPI cannot say (the router's 405 page, a server error), recorded as x-known-behaviours. */
    behaviours: () => causes().filter((action) => !action["x-schema-location"] && !action["x-response"]),
    /** The failures that fail a run: not known (as the overlay's x-known-behaviours make them). */
    failing: (report: { failures: Array<{ check: string; operationId: string; message: string; known?: boolean }> }) =>
      report.failures.filter((f) => !f.known).map((f) => `${f.check} on ${f.operationId}: ${f.message}`),
  };
}
