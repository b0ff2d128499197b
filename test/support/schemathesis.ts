// What the Schemathesis tests share: a project written by the real `contracts schemathesis` into a temporary folder,
// the operations its schemathesis.toml leaves out, and the sandbox's demo credentials in the variables it reads.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSchemathesisCommand } from "../../conformance/schemathesis/cli.js";
import { type LocalRun, runLocalSchemathesis } from "../../conformance/schemathesis/local-run.js";
import { CREDENTIAL_ENV } from "../../conformance/apis.js";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import { DEFAULT_CONFIG } from "../../mock/sandbox/default-config.js";
import { runContracts } from "./processes.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { ORACLES } from "../../conformance/fault-servers/faults.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startOracleLinksServer } from "../../conformance/oracle/links.js";
import { testServerRate } from "../../conformance/fault-servers/schemathesis-runs.js";
import { type RunningSandbox, startSandbox } from "../../mock/sandbox/server.js";
import { expect } from "vitest";

export interface WrittenProject {
  dir: string;
  /** The operationIds its schemathesis.toml disables. */
  excluded: Set<string>;
}

export function schemathesisProjectIn(api: ApiName, args: string[] = []): WrittenProject {
  const dir = join(mkdtempSync(join(tmpdir(), "st-run-")), api);
  const code = runSchemathesisCommand([api, "--out", dir, ...args], { out: () => {} });
  if (code !== 0) throw new Error(`contracts schemathesis ${api} ${args.join(" ")} exited ${code}`);
  const config = readFileSync(join(dir, "schemathesis.toml"), "utf8");
  const excluded = new Set(
    [...config.matchAll(/include-operation-id = "([^"]+)"\nenabled = false/g)].map((m) => m[1]!),
  );
  return { dir, excluded };
}

const client = DEFAULT_CONFIG.identity.clients[0]!;

/** The sandbox's demo credentials, in the environment variables the generated schemathesis.toml and hooks read. */
export const SANDBOX_CREDENTIALS: Record<ApiName, Record<string, string>> = {
  links: { [CREDENTIAL_ENV.token]: DEFAULT_CONFIG.links.keys[0]!.api_key },
  catalog: { [CREDENTIAL_ENV.apiKey]: DEFAULT_CONFIG.catalog.keys[0]!.api_key },
  pay: {
    [CREDENTIAL_ENV.shopId]: DEFAULT_CONFIG.pay.keys[0]!.shop_id,
    [CREDENTIAL_ENV.secret]: DEFAULT_CONFIG.pay.keys[0]!.api_key,
  },
  identity: {
    [CREDENTIAL_ENV.clientId]: client.client_id,
    [CREDENTIAL_ENV.clientSecret]: client.client_secret,
    [CREDENTIAL_ENV.redirectUri]: client.redirect_uris[0]!,
    IDENTITY_POST_LOGOUT_REDIRECT_URI: client.post_logout_redirect_uris![0]!,
  },
};

/** The independent servers (conformance/oracle), each with the options of its Schemathesis project. */
export const ORACLE_RUNS: Array<{
  name: string;
  api: ApiName;
  start(): Promise<RunningServer>;
  projectArgs: string[];
}> = [
  ...(["http", "always-200"] as const).map((errors) => ({
    name: `links, errors ${errors === "http" ? "with HTTP statuses" : "in HTTP 200"}`,
    api: "links" as const,
    start: () => startOracleLinksServer({ token: FAULT_SERVER_CREDENTIALS.LINKS_TOKEN, errors, windowMs: 1000 }),
    projectArgs: [],
  })),
  ...ORACLES.map((oracle) => ({
    name: oracle.api,
    api: oracle.api,
    start: () => oracle.start(),
    projectArgs: oracle.api === "pay" ? ["--nonce", "milliseconds"] : [],
  })),
];

/** Schemathesis on a new start of `oracle`, with writes, on `seed`; with the number of requests the oracle logged. */
export async function runOnOracle(
  oracle: (typeof ORACLE_RUNS)[number],
  seed: number,
): Promise<LocalRun & { requests: number }> {
  const server = await oracle.start();
  try {
    const project = schemathesisProjectIn(oracle.api, ["--allow-writes", ...oracle.projectArgs]);
    const run = await runLocalSchemathesis(project.dir, oracle.api, server.url, {
      seed,
      env: { ...FAULT_SERVER_CREDENTIALS },
      more: ["--max-examples", "10", "--rate-limit", testServerRate(oracle.api)],
    });
    return { ...run, requests: server.log.length };
  } finally {
    await server.close();
  }
}

/** An access token of the demo user, from `contracts sandbox sign-in` at the sandbox's identity API. */
export async function sandboxAccessToken(issuer: string): Promise<string> {
  const signIn = runContracts(["sandbox", "sign-in", "--issuer", issuer]);
  const code = await signIn.exit;
  const token = /^export ACCESS_TOKEN='([^']+)'$/m.exec(signIn.stdout())?.[1];
  if (code !== 0 || !token) throw new Error(`contracts sandbox sign-in exited ${code}: ${signIn.stderr()}`);
  return token;
}

/** Secrets of `env` (its values of 6 characters or more) that a report in `dir`/reports shows, as sent or encoded. */
export function secretsInReports(dir: string, env: Record<string, string>): string[] {
  const reports = readdirSync(join(dir, "reports")).map((name) => readFileSync(join(dir, "reports", name), "utf8"));
  if (reports.length === 0) throw new Error(`no report in ${dir}/reports`);
  const secrets = Object.values(env).filter((value) => value.length >= 6);
  const encodings = (secret: string) => [
    secret,
    encodeURIComponent(secret),
    Buffer.from(secret).toString("base64"),
    Buffer.from(secret).toString("base64url"),
  ];
  return secrets.filter((secret) => encodings(secret).some((form) => reports.some((text) => text.includes(form))));
}

/** The project `contracts schemathesis <api> <args>` writes for the sandbox (its pay counts nonces in milliseconds). */
export function sandboxProject(api: ApiName, args: string[]): WrittenProject {
  return schemathesisProjectIn(api, [...args, ...(api === "pay" ? ["--nonce", "milliseconds"] : [])]);
}

/** The sandbox's four APIs on free ports, without a rate limit, with the log of every request it answered. */
export async function startLoggedSandbox(): Promise<{
  sandbox: RunningSandbox;
  called: Array<{ api: ApiName; method: string; path: string }>;
}> {
  const called: Array<{ api: ApiName; method: string; path: string }> = [];
  const sandbox = await startSandbox({
    ports: { identity: 0, links: 0, catalog: 0, pay: 0 },
    rateLimit: false,
    onRequest: (request) => called.push(request),
  });
  return { sandbox, called };
}

/**
 * Schemathesis on the sandbox's `api` with the project `contracts schemathesis <api> <args>` writes (pay's nonces in
 * milliseconds), on `seed`: no failure, no error, no secret in its report, and no operation the project leaves out
 * in the sandbox's log. Returns the operations the log shows it called. The runs of one log must not overlap.
 */
export async function expectCleanSandboxRun(
  { sandbox, called }: Awaited<ReturnType<typeof startLoggedSandbox>>,
  api: ApiName,
  args: string[],
  seed: number,
): Promise<Set<string>> {
  const project = sandboxProject(api, args);
  const env = { ...SANDBOX_CREDENTIALS[api] };
  if (api === "identity") env.IDENTITY_ACCESS_TOKEN = await sandboxAccessToken(sandbox.urls.identity);
  const from = called.length;
  const run = await runLocalSchemathesis(project.dir, api, sandbox.urls[api], {
    seed,
    env,
    more: ["--max-examples", "10", "--rate-limit", "1000/s"],
  });
  expect(run.code, run.output).toBe(0);
  expect(run.output).toMatch(/No issues found|warnings? in/);
  expect(secretsInReports(project.dir, env)).toEqual([]);
  const contract = loadContract(api);
  const ids = called
    .slice(from)
    .filter((request) => request.api === api)
    .map((request) => contract.route(request.method, request.path)?.operation.operationId);
  const reached = new Set(ids.filter((id): id is string => id !== undefined));
  expect(reached.size, run.output).toBeGreaterThan(0);
  expect(
    [...reached].filter((id) => project.excluded.has(id)),
    run.output,
  ).toEqual([]);
  return reached;
}
