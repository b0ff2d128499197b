// What the installed tools read beside their code (conformance/seed-sentences.yaml): `contracts conform` quotes the
// seed sentence a failure breaks and `contracts overlay record` gives each deviation its seed sentence. A package
// without the table failed overlay record with ENOENT and printed conform's failures without their breaks: lines,
// so both run here from the run's application with both packages installed (test/support/installed-packages.ts),
// against a fault server and the drifted oracle links server of this checkout, on loopback; then `contracts overlay
// diff` shows what the recorded overlay changes in the contract the package ships, and conform with the recorded
// overlay alone passes on that deployment, as the conformance guide's step 5 says.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startLinksServer } from "../../conformance/fault-servers/links.js";
import { DEPLOYMENT_DRIFT, startOracleLinksServer } from "../../conformance/oracle/links.js";
import type { OverlayDocument } from "../../lib/contract/overlay.js";
import { appWithBothPackages, stopAll } from "../support/installed-packages.js";
import { type RunningCommand, spawnCommand } from "../support/processes.js";

const run = promisify(execFile);
const env = { ...FAULT_SERVER_CREDENTIALS };
const scratch = mkdtempSync(join(tmpdir(), "contracts-seed-table-"));
let app: string;
const bin = () => join(app, "node_modules", ".bin", "contracts");
const started: RunningCommand[] = [];
const servers: RunningServer[] = [];

/** The installed `contracts` with the fault servers' credentials; conform exits 1 on the failures it finds. */
function start(args: string[]): RunningCommand {
  const command = spawnCommand(bin(), args, app, env);
  started.push(command);
  return command;
}

beforeAll(async () => {
  app = await appWithBothPackages();
}, 300_000);

afterAll(async () => {
  await stopAll(started);
  await Promise.all(servers.map((server) => server.close()));
  rmSync(scratch, { recursive: true, force: true });
});

describe.concurrent("the installed tools read the seed-sentence table", () => {
  it("contracts conform prints the seed sentence a failure breaks", async () => {
    const server = await startLinksServer({
      token: env.LINKS_TOKEN,
      fault: "list-error-as-integer",
      rateLimit: { windowMs: 1000 },
    });
    servers.push(server);
    const conform = start([
      ...["conform", "links", "--base-url", server.url],
      ...["--max-examples", "3", "--seed", "7", "--rate-limit", "1000/s"],
    ]);
    expect(await conform.exit, conform.stderr()).toBe(1);
    expect(conform.stdout()).toContain(
      'breaks: links seed: | error | integer 0 or 1 (list responses carry the string form "0")',
    );
  });

  it("contracts overlay record writes the overlay of a drifted deployment's run, each deviation with its sentence", async () => {
    const server = await startOracleLinksServer({ token: env.LINKS_TOKEN, windowMs: 1000, drift: DEPLOYMENT_DRIFT });
    servers.push(server);
    const json = join(scratch, "drifted-links.json");
    const overlayFile = join(scratch, "links.overlay.yaml");
    const conform = start([
      ...["conform", "links", "--base-url", server.url, "--seed", "5", "--max-examples", "4"],
      ...["--rate-limit", "1000/s", "--allow-writes", "--json", json],
    ]);
    expect(await conform.exit, conform.stderr()).toBe(1);
    const record = ["overlay", "record", "links", "--from-json", json, "--output", overlayFile];
    const { stderr } = await run(bin(), record, { cwd: app, timeout: 120_000 });
    expect(stderr).toMatch(/review them before you commit the overlay/);
    const overlay = parseYaml(readFileSync(overlayFile, "utf8")) as OverlayDocument;
    const causes = overlay.actions.filter((action) => action["x-check"]);
    expect(causes.length).toBeGreaterThan(0);
    // A shape departs from a seed sentence; a behaviour (a 405 page, a 500 page) names what its check enforces, and
    // its seed sentence where one says it.
    for (const action of causes.filter((cause) => cause["x-schema-location"]))
      expect(action["x-seed-sentence"], String(action["x-schema-location"])).toEqual(expect.any(String));
    const behaviours = causes.filter((cause) => !cause["x-schema-location"]);
    expect(behaviours.map((cause) => cause["x-check"])).toEqual(
      expect.arrayContaining(["unsupported_method", "allow_header"]),
    );
    for (const action of behaviours)
      expect(action["x-enforces"], String(action["x-cause"])).toEqual(expect.any(String));
    expect(behaviours.find((cause) => cause["x-check"] === "allow_header")!["x-enforces"]).toMatch(/RFC 9110/);
    // What the overlay changes in the reference, read against the bundle the installed package ships: the operations,
    // then each place before and after (the overlay list's array under `overlay`, the 500 HTML page as a response).
    const diff = await run(bin(), ["overlay", "diff", overlayFile], { cwd: app, timeout: 120_000 });
    const lines = diff.stdout.split("\n");
    expect(lines[0]).toBe(
      `${overlayFile} (${overlay.info.title}, ${overlay.info.version}): ${overlay.actions.length} action(s) on the links contract`,
    );
    expect(lines[1]).toMatch(/^It changes \d+ operation\(s\): .*listOverlays \(changed\)/);
    expect(lines).toContain(
      '+ /components/schemas/OverlayPage/properties/overlay: {"type":"array","items":{"$ref":"#/components/schemas/Overlay"}}',
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^\+ \/paths\/~1api~1channel~1\{id\}\/get\/responses\/500: \{.*"text\/html"/),
    );
    // The guide's step 5, from the installed tools: with the overlay alone, the same deployment passes, its known
    // behaviours reported as such and every recorded cause confirmed.
    const again = start([
      ...["conform", "links", "--base-url", server.url, "--seed", "5", "--max-examples", "4"],
      ...["--rate-limit", "1000/s", "--allow-writes", "--overlay", overlayFile],
    ]);
    expect(await again.exit, again.stdout() + again.stderr()).toBe(0);
    expect(again.stdout()).toMatch(/passed: no new causes of failure; \d+ known causes? \(in the overlay\)/);
    expect(again.stdout()).toMatch(new RegExp(`: ${causes.length} of its ${causes.length} deviation\\(s\\) confirmed`));
  });
});
