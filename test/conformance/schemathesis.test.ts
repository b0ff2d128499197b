// `contracts schemathesis <api>`: the files it writes, the exclusions it shares with `contracts conform`, and the
// Docker command it prints, checked against those files (no Docker engine runs here): the mounts, the working
// folder and the config file name Schemathesis finds there. Real Schemathesis runs: schemathesis-run.test.ts.
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSchemathesisCommand } from "../../conformance/schemathesis/cli.js";
import {
  DOCKER_PROJECT,
  DOCKER_REPORTS,
  runCommands,
  SCHEMATHESIS_VERSION,
} from "../../conformance/schemathesis/project.js";
import { repoRoot } from "../support/processes.js";
import { API_NAMES } from "../../lib/contract/index.js";

function generate(api: string, args: string[] = []): { dir: string; printed: string } {
  const dir = join(mkdtempSync(join(tmpdir(), "st-project-")), api);
  let printed = "";
  expect(runSchemathesisCommand([api, "--out", dir, ...args], { out: (text) => (printed += text) })).toBe(0);
  return { dir, printed };
}

describe("contracts schemathesis", () => {
  it.each(API_NAMES)(
    "%s: the Docker command mounts the files Schemathesis reads, readable and writable by uid 1000",
    (api) => {
      const { dir, printed } = generate(api);
      const docker = printed.split("\n").find((line) => line.trim().startsWith("docker run"))!;
      expect(docker).toContain(`-v "${dir}:${DOCKER_PROJECT}:ro"`);
      expect(docker).toContain(`-v "${dir}/reports:${DOCKER_REPORTS}"`);
      expect(docker).toContain(`-w ${DOCKER_PROJECT}`);
      expect(docker).toContain(`schemathesis/schemathesis:v${SCHEMATHESIS_VERSION} run ${api}.openapi.json`);
      expect(docker).toContain(`--report-dir ${DOCKER_REPORTS}`);
      // Schemathesis finds schemathesis.toml in its working folder; the config names the hooks file beside it.
      const config = readFileSync(join(dir, "schemathesis.toml"), "utf8");
      expect(config).toContain('hooks = "hooks.py"');
      expect(config).toContain("max-redirects = 0");
      for (const file of ["schemathesis.toml", "hooks.py", "contract-facts.json", `${api}.openapi.json`]) {
        expect(existsSync(join(dir, file))).toBe(true);
        expect(statSync(join(dir, file)).mode & 0o004).toBe(0o004);
      }
      expect(statSync(join(dir, "reports")).mode & 0o777).toBe(0o777);
      const local = printed.split("\n").find((line) => line.includes(" st run "))!;
      expect(local.trim()).toBe(`cd ${dir} && st run ${api}.openapi.json --url <base-url>`);
    },
  );

  it("links: leaves out the writes and updateAccount as conform does, and keeps the rate limit and the key's variable", () => {
    const { dir } = generate("links");
    const config = readFileSync(join(dir, "schemathesis.toml"), "utf8");
    expect(config).toContain('rate-limit = "30/m"');
    expect(config).toContain('[auth.openapi.bearerApiKey]\nbearer = "${LINKS_TOKEN}"');
    expect(config).toMatch(/include-operation-id = "updateAccount"\nenabled = false/);
    expect(config).toMatch(/include-operation-id = "addDomain"\nenabled = false/);
    const writes = readFileSync(join(generate("links", ["--allow-writes"]).dir, "schemathesis.toml"), "utf8");
    expect(writes).not.toMatch(/include-operation-id = "addDomain"/);
    expect(writes).toMatch(/include-operation-id = "updateAccount"\nenabled = false/);
    const named = generate("links", ["--allow-writes", "--operation", "updateAccount"]);
    expect(readFileSync(join(named.dir, "schemathesis.toml"), "utf8")).not.toMatch(/"updateAccount"\nenabled/);
  });

  it("identity: the token only for the oauth2 scheme, the registered client as parameters", () => {
    const config = readFileSync(join(generate("identity").dir, "schemathesis.toml"), "utf8");
    expect(config).toContain('[auth.openapi.oauth2]\nbearer = "${IDENTITY_ACCESS_TOKEN}"');
    expect(config).not.toMatch(/^headers/m);
    expect(config).toContain('"query.client_id" = "${IDENTITY_CLIENT_ID}"');
    expect(config).toContain('"query.redirect_uri" = "${IDENTITY_REDIRECT_URI}"');
    expect(config).toContain('"query.post_logout_redirect_uri" = "${IDENTITY_POST_LOGOUT_REDIRECT_URI}"');
  });

  it("catalog's flavour: x-fraction-digits as multipleOf, the assumed 200 as 2XX, assumed constraints dropped", () => {
    const bundle = JSON.parse(readFileSync(join(generate("catalog").dir, "catalog.openapi.json"), "utf8"));
    const amount = bundle.components.schemas.PriceCreate.properties.amount;
    expect(amount.multipleOf).toBe(0.01);
    expect(amount.minimum).toBeUndefined();
    const responses = bundle.paths["/admin/seller-api/products"].post.responses;
    expect(Object.keys(responses)).toContain("2XX");
    expect(Object.keys(responses)).not.toContain("200");
  });

  it("links' flavour: responses open to fields the contract does not list, and URLs read as IRIs; requests as they are", () => {
    const bundle = JSON.parse(readFileSync(join(generate("links").dir, "links.openapi.json"), "utf8"));
    const schemas = bundle.components.schemas;
    expect(schemas.AccountResponse.additionalProperties).toBeUndefined();
    expect(schemas.Account.additionalProperties).toBeUndefined();
    expect(schemas.Domain.properties.domain.format).toBe("iri");
    expect(schemas.DomainAdd.properties.domain.format).toBe("uri");
  });

  it("the guide's Docker and local commands are the ones the command prints", () => {
    const guide = readFileSync(join(repoRoot, "docs/guide/schemathesis.md"), "utf8");
    const { docker, local } = runCommands("links", "$PWD/schemathesis-links", "https://links.example.com");
    expect(guide).toContain(`\n${docker}\n`);
    expect(guide).toContain(`${local.replace("st run", "LINKS_TOKEN=... st run")}\n`);
    expect(guide).toContain(`schemathesis==${SCHEMATHESIS_VERSION}`);
  });

  it("refuses to name an operation the options keep from running", () => {
    expect(() => generate("links", ["--operation", "updateAccount"])).toThrow(/updateAccount cannot run/);
  });
});
