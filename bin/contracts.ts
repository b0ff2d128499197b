#!/usr/bin/env node
// The one CLI of this package: `contracts <command> [options]`.
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { API_NAMES, type ApiName } from "../lib/openapi.js";
import { fromPackageRoot } from "../lib/paths.js";
import { DEFAULT_MOCK_PORTS, MockStartError, startMocks } from "../mock/prism.js";

const USAGE = `Usage: contracts <command> [options]

Commands:
  mock      Start Prism mock servers for the APIs (default: all four) and print their URLs.

contracts mock [--api <name>]... [--host <host>] [--port <api>=<port>]... [--base-port <n>] [--dynamic] [--verbose]
  --api <name>         identity, links, catalog or pay; repeatable (env MOCK_APIS="links,pay")
  --host <host>        address to listen on (env MOCK_HOST; default 127.0.0.1)
  --port <api>=<port>  port of one API; repeatable (env MOCK_PORTS="links=5011,pay=5013")
  --base-port <n>      identity on n, links n+1, catalog n+2, pay n+3 (env MOCK_BASE_PORT; default 4010)
  --dynamic            generate data from the schemas instead of serving the named examples
  --verbose            print Prism's request log
`;

/** A mistake in the command line: printed as one line, exit code 2. */
class UsageError extends Error {}

function parseApi(name: string): ApiName {
  if (!(API_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown API "${name}"; expected one of ${API_NAMES.join(", ")}`);
  return name as ApiName;
}

function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`${what} must be a port number from 1 to 65535, got "${text}"`);
  return port;
}

function splitList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

async function mockCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      api: { type: "string", multiple: true },
      host: { type: "string" },
      port: { type: "string", multiple: true },
      "base-port": { type: "string" },
      dynamic: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const apiNames = values.api?.length ? values.api.flatMap((a) => splitList(a)) : splitList(process.env.MOCK_APIS);
  const apis = apiNames.length > 0 ? [...new Set(apiNames.map(parseApi))] : [...API_NAMES];
  const host = values.host ?? process.env.MOCK_HOST ?? "127.0.0.1";
  const ports: Partial<Record<ApiName, number>> = {};
  const basePort = values["base-port"] ?? process.env.MOCK_BASE_PORT;
  if (basePort !== undefined) {
    const base = parsePort(basePort, "--base-port");
    API_NAMES.forEach((api, index) => (ports[api] = parsePort(String(base + index), `--base-port + ${index}`)));
  }
  for (const pair of values.port?.length ? values.port : splitList(process.env.MOCK_PORTS)) {
    const [api, port] = pair.split("=");
    if (!api || port === undefined) throw new UsageError(`--port takes <api>=<port>, got "${pair}"`);
    ports[parseApi(api)] = parsePort(port, `--port ${api}`);
  }

  const running = await startMocks({ apis, host, ports, dynamic: values.dynamic, verbose: values.verbose });
  const rows = running.mocks.map((m) => [m.api, m.url, pathToFileURL(fromPackageRoot("generated", "reference", `${m.api}.html`)).href]);
  const widths = [0, 1].map((i) => Math.max(...[["API", "URL"][i]!.length, ...rows.map((r) => r[i]!.length)]));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c)).join("  ");
  console.log(`Prism mocks (${values.dynamic ? "dynamic data" : "static examples"}), Ctrl-C to stop:\n`);
  console.log(line(["API", "URL", "Docs"]));
  for (const row of rows) console.log(line(row));
  console.log(`\nPick a documented response with the Prefer header, e.g. \`Prefer: code=403\` or \`Prefer: example=<name>\`.`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the mocks...`);
    await running.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  const { api, code } = await running.exited;
  if (stopping) return new Promise(() => {}); // the signal handler exits
  console.error(`the ${api} mock exited unexpectedly (code ${code}); stopping the others`);
  await running.stop();
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "mock":
      return mockCommand(rest);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"; run \`contracts --help\``);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof MockStartError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`contracts: ${(error as Error).message}`);
      process.exit(error instanceof MockStartError ? 1 : 2);
    }
    console.error(error);
    process.exit(1);
  },
);
