// `contracts conform --config <file>`: one command checks a whole deployment. The file (YAML or JSON) names, per API,
// the base URL, the environment variables that hold its credentials (never the secrets themselves), its rate limit
// and baseline, and extra options; the other command-line options apply to every API. Each API runs in turn with
// the same runner as `contracts conform <api>`; the exit code is the worst of them.
//
//   apis:
//     links:
//       { baseUrl: https://links.example.com, credentials: { token: PROD_LINKS_TOKEN }, rateLimit: 30/m,
//         baseline: conform/links.json }
//     catalog:
//       { baseUrl: https://api.example.com,
//         credentials: { apiKey: PROD_CATALOG_KEY, readApiKey: PROD_CATALOG_READ_KEY } }
//     pay:
//       { baseUrl: https://pay.example.com, credentials: { shopId: PROD_SHOP_ID, secret: PROD_PAY_SECRET },
//         options: [--max-examples, "10"] }
import { readFileSync } from "node:fs";
import { UsageError } from "../lib/cli.js";
import { API_NAMES, type ApiName } from "../lib/contract/index.js";
import { type Credentials, CREDENTIAL_ENV } from "./apis.js";

export interface DeploymentApi {
  baseUrl: string;
  /** Credential (as in `Credentials`) → the environment variable that holds it. */
  credentials?: Partial<Record<keyof Credentials, string>>;
  rateLimit?: string;
  baseline?: string;
  /** More `contracts conform` options for this API. */
  options?: string[];
}

export interface DeploymentConfig {
  apis: Partial<Record<ApiName, DeploymentApi>>;
}

export async function readDeploymentConfig(file: string): Promise<DeploymentConfig> {
  // The YAML parser is loaded only for --config: it is a twentieth of the start-up of every other run.
  const { parse } = await import("yaml");
  let parsed: unknown;
  try {
    parsed = parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(
      `cannot read the config ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const apis = (parsed as { apis?: unknown } | null)?.apis;
  if (!apis || typeof apis !== "object") throw new UsageError(`the config ${file} has no "apis" map`);
  for (const [api, entry] of Object.entries(apis as Record<string, unknown>)) {
    if (!(API_NAMES as readonly string[]).includes(api))
      throw new UsageError(`the config ${file} names an unknown API "${api}"; expected ${API_NAMES.join(", ")}`);
    const e = entry as Partial<DeploymentApi> | null;
    if (!e || typeof e.baseUrl !== "string") throw new UsageError(`the config ${file}: ${api} needs a baseUrl`);
    for (const key of Object.keys(e.credentials ?? {}))
      if (!(key in CREDENTIAL_ENV))
        throw new UsageError(
          `the config ${file}: ${api} names an unknown credential "${key}"; expected ${Object.keys(CREDENTIAL_ENV).join(", ")}`,
        );
    if (e.options !== undefined && (!Array.isArray(e.options) || e.options.some((o) => typeof o !== "string")))
      throw new UsageError(`the config ${file}: ${api} options must be a list of strings`);
  }
  return { apis: apis };
}

/** A report file name per API: `{api}` in the name is replaced, otherwise `.<api>` goes before the extension. */
export function perApiFile(file: string, api: ApiName): string {
  if (file.includes("{api}")) return file.replaceAll("{api}", api);
  const dot = file.lastIndexOf(".");
  return dot > file.lastIndexOf("/") ? `${file.slice(0, dot)}.${api}${file.slice(dot)}` : `${file}.${api}`;
}

/** The argv and environment of one API's run: credentials come from the config's variables under the usual names. */
export function apiRun(
  api: ApiName,
  entry: DeploymentApi,
  shared: string[],
  env: NodeJS.ProcessEnv,
): { argv: string[]; env: NodeJS.ProcessEnv } {
  const runEnv: NodeJS.ProcessEnv = { ...env };
  for (const [key, variable] of Object.entries(entry.credentials ?? {})) {
    const value = env[variable];
    if (!value) throw new UsageError(`the config says ${api} reads ${key} from $${variable}, which is not set`);
    runEnv[CREDENTIAL_ENV[key as keyof Credentials]] = value;
  }
  const argv = [api, "--base-url", entry.baseUrl];
  if (entry.rateLimit) argv.push("--rate-limit", entry.rateLimit);
  if (entry.baseline) argv.push("--baseline", entry.baseline);
  const perApi = shared.map((arg, index) =>
    index > 0 && ["--json", "--junit", "--html"].includes(shared[index - 1]!) ? perApiFile(arg, api) : arg,
  );
  argv.push(...(entry.options ?? []), ...perApi);
  return { argv, env: runEnv };
}
