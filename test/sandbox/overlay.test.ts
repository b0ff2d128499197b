// `contracts sandbox --overlay`: the sandbox reads the overlaid contract (here a deployment's lower rate limit, which
// it enforces), and refuses, with one line that names the operations and points to the mock, an overlay that changes
// what an operation answers, since its handlers answer in the canonical shapes. The real CLI, real HTTP on loopback.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { portsFrom } from "./support/sandbox.js";
import { testPort } from "../support/ports.js";
import { type RunningCommand, runContracts } from "../support/processes.js";

const BASE_PORT = testPort(4480);
const links = `http://127.0.0.1:${portsFrom(BASE_PORT).links}`;
const directory = mkdtempSync(join(tmpdir(), "sandbox-overlay-"));
const started: RunningCommand[] = [];

function overlayFile(name: string, actions: string): string {
  const file = join(directory, name);
  writeFileSync(
    file,
    `overlay: 1.0.0\ninfo: { title: ${name}, version: "1" }\nextends: links.json\nactions:\n${actions}`,
  );
  return file;
}

afterAll(() => {
  for (const command of started) if (command.child.exitCode === null) command.child.kill("SIGKILL");
});

describe("contracts sandbox --overlay", () => {
  it("serves the overlaid contract: a deployment's rate limit of 5 per minute is announced and enforced", async () => {
    const file = overlayFile("rate.yaml", "  - target: $.info['x-rate-limit']\n    update: { limit: 5 }\n");
    const sandbox = runContracts(["sandbox", "--base-port", String(BASE_PORT), "--overlay", file]);
    started.push(sandbox);
    await sandbox.waitForOutput(/createOrder returns a payment page/, 30_000);
    expect(sandbox.stdout()).toContain(`with the overlay(s) ${file}`);
    const headers = { Authorization: "Bearer demo-links-key" };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${links}/api/account`, { headers });
      statuses.push(response.status);
      if (i === 0) expect(response.headers.get("x-ratelimit-limit")).toBe("5");
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    sandbox.child.kill("SIGTERM");
    expect(await sandbox.exit).toBe(0);
  });

  it("refuses an overlay that changes what an operation answers, and points to contracts mock --overlay", async () => {
    const file = overlayFile(
      "renamed.yaml",
      "  - target: $.components.schemas.OverlayPage.properties\n    update: { overlay: { type: array } }\n",
    );
    const sandbox = runContracts(["sandbox", "--base-port", String(BASE_PORT), "--overlay", file]);
    started.push(sandbox);
    expect(await sandbox.exit).toBe(2);
    expect(sandbox.stderr()).toMatch(/changes operations of the links contract: listOverlays \(changed\)\./);
    expect(sandbox.stderr()).toContain(`contracts mock --overlay ${file}`);
    expect(sandbox.stdout()).toBe("");
  });
});
