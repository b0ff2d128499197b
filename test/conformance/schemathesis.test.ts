// scripts/schemathesis.sh cannot run Schemathesis here (no Docker engine), so the test puts a stand-in `docker` first
// on PATH that records the command it was given and the config it was handed, and checks both.
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/processes.js";

const run = promisify(execFile);
const script = join(repoRoot, "scripts", "schemathesis.sh");

function fakeDocker(): { bin: string; record: string } {
  const bin = mkdtempSync(join(tmpdir(), "fake-docker-"));
  const record = join(bin, "record");
  // Writes one argument per line, then the config file found behind the /config mount, then the environment
  // variables it was told to pass on (-e NAME) with their values as docker would see them.
  writeFileSync(
    join(bin, "docker"),
    `#!/usr/bin/env bash
{ printf '%s\\n' "$@"; echo "--- config"; for arg in "$@"; do case "$arg" in *:/config:ro) cat "\${arg%%:/config:ro}/schemathesis.toml";; esac; done; echo "--- env"; prev=; for arg in "$@"; do [ "$prev" = -e ] && echo "$arg=\${!arg}"; prev=$arg; done; } > "${record}"
`,
  );
  chmodSync(join(bin, "docker"), 0o755);
  return { bin, record };
}

describe("scripts/schemathesis.sh", () => {
  it("runs the Schemathesis image on the links bundle with the token from the environment and the contract's rate limit", async () => {
    const { bin, record } = fakeDocker();
    const reports = mkdtempSync(join(tmpdir(), "st-reports-"));
    await run(script, ["links", "http://127.0.0.1:4011", "--seed", "5"], {
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        LINKS_TOKEN: "links-secret-value-1",
        SCHEMATHESIS_REPORTS: reports,
      },
    });
    const [argv, rest] = readFileSync(record, "utf8").split("--- config\n");
    const [config, env] = rest!.split("--- env\n");
    const args = argv!.trim().split("\n");
    expect(args.slice(0, 4)).toEqual(["run", "--rm", "--network", "host"]);
    expect(args).toContain(`${repoRoot}generated/openapi/links.json:/spec/links.json:ro`.replace("//", "/"));
    expect(args.join(" ")).toMatch(
      /-e LINKS_TOKEN schemathesis\/schemathesis:stable --config-file \/config\/schemathesis\.toml run \/spec\/links\.json --url http:\/\/127\.0\.0\.1:4011 --checks all --report junit --report-dir \/reports --seed 5$/,
    );
    expect(argv).not.toContain("links-secret-value-1");
    expect(config).toContain('rate-limit = "30/m"');
    expect(config).toContain('Authorization = "Bearer ${LINKS_TOKEN}"');
    expect(config).not.toContain("links-secret-value-1");
    expect(env).toBe("LINKS_TOKEN=links-secret-value-1\n");
  });

  it("uses the seller key header for catalog, without a rate limit the contract does not have", async () => {
    const { bin, record } = fakeDocker();
    await run(script, ["catalog", "http://127.0.0.1:4012"], {
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        CATALOG_API_KEY: "catalog-secret-value",
        SCHEMATHESIS_REPORTS: mkdtempSync(join(tmpdir(), "st-")),
      },
    });
    const text = readFileSync(record, "utf8");
    expect(text).toContain('x-seller-api-key = "${CATALOG_API_KEY}"');
    expect(text).not.toContain("rate-limit");
    expect(text).toContain("/spec/catalog.json");
  });

  it.each([
    [["pay", "http://127.0.0.1:4013"], {}, /use `contracts conform pay`/],
    [["links", "http://127.0.0.1:4011"], { LINKS_TOKEN: "" }, /links needs LINKS_TOKEN/],
    [["links", "ftp://x"], { LINKS_TOKEN: "t" }, /must start with http/],
    [["links"], {}, /usage: scripts\/schemathesis\.sh/],
  ])("%j refuses with exit code 2", async (args, env, message) => {
    const error = await run(script, args, { env: { ...process.env, ...env } }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(2);
    expect(error?.stderr).toMatch(message);
  });
});
