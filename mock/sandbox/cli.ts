// `contracts sandbox`: the stateful sandbox of all four APIs in one process, with its URLs and demo credentials
// printed, stopped (and its state written) on Ctrl-C or SIGTERM.
import { parseArgs } from "node:util";
import { parsePortAssignments, parseRequestRate, splitList, UsageError } from "../../lib/cli.js";
import { untilSignal } from "../../lib/signals.js";
import { API_NAMES } from "../../lib/contract/index.js";
import { changedOperations, installOverlay, operationChangeText } from "../../lib/contract/overlay.js";
import { describeCredentials } from "./banner.js";
import { type SandboxConfig, SandboxConfigError } from "./config.js";
import { loadConfig } from "./config-file.js";
import { contractRateLimit } from "./links.js";
import type { RateLimitPolicy } from "./rate-limit.js";
import type { RunningSandbox } from "./server.js";
import { runSignInCommand, SIGN_IN_USAGE } from "./sign-in.js";

export const SANDBOX_USAGE = `contracts sandbox [--host <host>] [--port <api>=<port>]... [--base-port <n>] [--data <file>] [--config <file>] [--rate-limit <rate>|off]
                  [--allowed-host <name>]... [--allowed-origin <origin>]... [--overlay <file>]... [--log-requests]
  Start the stateful sandbox of identity, links, catalog and pay (default 127.0.0.1:4020-4023) and print its
  URLs and demo credentials.
  --host <host>          address to listen on (env SANDBOX_HOST; default 127.0.0.1)
  --port <api>=<port>    port of one API; repeatable (env SANDBOX_PORTS="links=5021,pay=5023")
  --base-port <n>        identity on n, links n+1, catalog n+2, pay n+3 (env SANDBOX_BASE_PORT; default 4020)
  --data <file>          keep the state in this JSON file across restarts; its directory must exist (env
                         SANDBOX_DATA; default: in memory)
  --config <file>        clients, demo accounts and keys (env SANDBOX_CONFIG; default: --print-config)
  --rate-limit <rate>    links requests per key: 100 (per minute), 100/min, 5/s, or off (default: the contract's,
                         ${contractRateLimit().limit} per ${contractRateLimit().windowSeconds} s)
  --allowed-host <name>  answer requests for this Host besides loopback names and addresses (the sandbox refuses
                         others, as a defence against DNS rebinding); .example.com allows subdomains, * any; repeatable
                         (env SANDBOX_ALLOWED_HOSTS="a.test,b.test")
  --allowed-origin <o>   let pages of this origin (https://docs.example.com) call the JSON APIs besides the sandbox's
                         own and loopback origins; * allows any; repeatable (env SANDBOX_ALLOWED_ORIGINS)
  --log-requests         print a line for each request: the API, the method and the path (never the query)
  --overlay <file>       read the contract with this OpenAPI Overlay 1.0 applied (its extends names the API); only
                         an overlay that changes no operation (info.x-rate-limit, servers): the handlers answer in
                         the canonical shapes; serve a deployment's deviations with \`contracts mock --overlay\`
  --print-config         print the default config as JSON and exit

${SIGN_IN_USAGE}`;

function parseRateLimit(text: string | undefined): RateLimitPolicy | false | undefined {
  if (text === undefined) return undefined;
  if (text === "off") return false;
  const rate = parseRequestRate(text);
  if (!rate)
    throw new UsageError(
      `--rate-limit takes a number of requests per minute (30, 30/min), per second or hour (5/s, 900/h), or "off", got "${text}"`,
    );
  return rate;
}

/**
 * `--overlay <file>`: the sandbox reads the overlaid contract wherever it reads one (routing, request checks, the
 * seeded examples, `info.x-rate-limit`), as `contracts mock --overlay` does. Its handlers keep state and build their
 * answers in the canonical contract's shapes (they are typed by the generated types), so an overlay that changes
 * what an operation accepts or answers, as `contracts overlay record` writes them, would have the sandbox break the
 * contract it was given: it is refused, and the mock serves it.
 */
async function installSandboxOverlay(file: string): Promise<void> {
  const { loaded } = await installOverlay(file, undefined);
  const changed = changedOperations(loaded.api, loaded.document);
  if (changed.length > 0)
    throw new UsageError(
      `--overlay ${file} changes operations of the ${loaded.api} contract: ${changed.map(operationChangeText).join(", ")}. The sandbox's handlers keep state and answer in the canonical contract's shapes (they are typed by it), so they cannot serve a deployment's deviations; serve them with \`contracts mock --overlay ${file}\`. The sandbox takes an overlay that changes no operation (info.x-rate-limit, servers).`,
    );
}

/** The sandbox's settings from `file` (default: the built-in demo); a broken file is a usage error saying why. */
function readConfig(file: string | undefined): SandboxConfig {
  try {
    return loadConfig(file);
  } catch (error) {
    if (error instanceof SandboxConfigError) throw new UsageError(error.message);
    throw error;
  }
}

export async function runSandboxCommand(argv: string[]): Promise<number> {
  if (argv[0] === "sign-in") return runSignInCommand(argv.slice(1));
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string" },
      port: { type: "string", multiple: true },
      "base-port": { type: "string" },
      data: { type: "string" },
      config: { type: "string" },
      "rate-limit": { type: "string" },
      "allowed-host": { type: "string", multiple: true },
      "allowed-origin": { type: "string", multiple: true },
      overlay: { type: "string", multiple: true },
      "print-config": { type: "boolean", default: false },
      "log-requests": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(SANDBOX_USAGE);
    return 0;
  }
  const configFile = values.config ?? process.env.SANDBOX_CONFIG;
  const config = readConfig(configFile);
  if (values["print-config"]) {
    process.stdout.write(`${JSON.stringify(config, null, 2)}\n`);
    return 0;
  }
  const ports = parsePortAssignments(
    values["base-port"] ?? process.env.SANDBOX_BASE_PORT,
    values.port?.length ? values.port : splitList(process.env.SANDBOX_PORTS),
  );
  const dataFile = values.data ?? process.env.SANDBOX_DATA;
  for (const file of values.overlay ?? []) await installSandboxOverlay(file);
  // Watched from the start (the CLI began before it loaded this module): a signal during start-up stops the sandbox
  // as soon as it is up, with exit code 0.
  const stopRequested = untilSignal();
  console.error("Starting the stateful sandbox...");
  // Loaded only now: oidc-provider prints a runtime warning on import, which --help and --print-config need not show.
  const { SandboxStartError, startSandbox } = await import("./server.js");
  let running: RunningSandbox;
  try {
    running = await startSandbox({
      host: values.host ?? process.env.SANDBOX_HOST ?? "127.0.0.1",
      ports,
      config,
      dataFile,
      rateLimit: parseRateLimit(values["rate-limit"]),
      allowedHosts: values["allowed-host"]?.length
        ? values["allowed-host"]
        : splitList(process.env.SANDBOX_ALLOWED_HOSTS),
      allowedOrigins: values["allowed-origin"]?.length
        ? values["allowed-origin"]
        : splitList(process.env.SANDBOX_ALLOWED_ORIGINS),
      onRequest: values["log-requests"]
        ? ({ api, method, path }) => console.log(`${api.padEnd(10)}${method} ${path}`)
        : undefined,
    });
  } catch (error) {
    if (error instanceof SandboxStartError) throw new UsageError(error.message, 1);
    throw error;
  }
  const storage = dataFile
    ? `state kept in ${dataFile} (${running.restored ? "restored" : "new, seeded with the demo data"})`
    : "state in memory";
  const overlaid = values.overlay?.length ? `, with the overlay(s) ${values.overlay.join(", ")}` : "";
  console.log(`Stateful sandbox, ${storage}${overlaid}. Ctrl-C to stop.\n`);
  for (const api of API_NAMES) console.log(`${api.padEnd(10)}${running.urls[api]}`);
  console.log(`\n${describeCredentials(config, running.urls.identity, configFile)}`);

  const signal = await stopRequested;
  console.error(`\n${signal}: stopping the sandbox...`);
  await running.stop();
  return 0;
}
