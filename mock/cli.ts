// `contracts mock`: Prism mock servers for the APIs in this one process, one table of URLs; stops on Ctrl-C,
// SIGTERM, SIGHUP or when its parent process is gone.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { parseApiName, parsePortAssignments, splitList, UsageError } from "../lib/cli.js";
import { untilSignal } from "../lib/signals.js";
import { API_NAMES, type ApiName } from "../lib/contract/index.js";
import { installOverlay } from "../lib/contract/overlay.js";
import { fromPackageRoot } from "../lib/paths.js";
import { MockStartError, startMocks } from "./prism.js";

export const MOCK_USAGE = `contracts mock [--api <name>]... [--host <host>] [--port <api>=<port>]... [--base-port <n>] [--dynamic] [--verbose] [--overlay <file>]...
  Start Prism mock servers in one process (default: all four APIs on 127.0.0.1:4010-4013) and print their URLs.
  --api <name>         identity, links, catalog or pay; repeatable (env MOCK_APIS="links,pay")
  --host <host>        address to listen on (env MOCK_HOST; default 127.0.0.1)
  --port <api>=<port>  port of one API; repeatable (env MOCK_PORTS="links=5011,pay=5013")
  --base-port <n>      identity on n, links n+1, catalog n+2, pay n+3 (env MOCK_BASE_PORT; default 4010)
  --dynamic            generate data from the schemas instead of serving the named examples
  --verbose            print Prism's request log
  --overlay <file>     serve the contract with this OpenAPI Overlay 1.0 applied (a deployment's recorded deviations,
                       \`contracts overlay record\`); its extends names the API (links.json); repeatable, one per API
`;

export async function runMockCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      api: { type: "string", multiple: true },
      host: { type: "string" },
      port: { type: "string", multiple: true },
      "base-port": { type: "string" },
      dynamic: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
      overlay: { type: "string", multiple: true },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(MOCK_USAGE);
    return 0;
  }
  const apiNames = values.api?.length ? values.api.flatMap((a) => splitList(a)) : splitList(process.env.MOCK_APIS);
  const apis = apiNames.length > 0 ? [...new Set(apiNames.map(parseApiName))] : [...API_NAMES];
  const host = values.host ?? process.env.MOCK_HOST ?? "127.0.0.1";
  const ports = parsePortAssignments(
    values["base-port"] ?? process.env.MOCK_BASE_PORT,
    values.port?.length ? values.port : splitList(process.env.MOCK_PORTS),
  );

  // The mocks and the mocker read the overlaid contract (lib/contract/overlay.ts) for as long as this process runs.
  const documents: Partial<Record<ApiName, object>> = {};
  for (const file of values.overlay ?? []) {
    const { loaded } = await installOverlay(file, undefined);
    if (!apis.includes(loaded.api)) throw new UsageError(`--overlay ${file} is for ${loaded.api}, not a mocked API`);
    documents[loaded.api] = loaded.document;
  }

  // Watch from the start: a signal or the parent's end during start-up stops the command as soon as it is up.
  const stopRequested = untilSignal();
  let running;
  try {
    running = await startMocks({ apis, host, ports, dynamic: values.dynamic, verbose: values.verbose, documents });
  } catch (error) {
    if (error instanceof MockStartError) throw new UsageError(error.message, 1);
    throw error;
  }
  const rows = running.mocks.map((m) => [
    m.api,
    m.url,
    pathToFileURL(fromPackageRoot("generated", "reference", `${m.api}.html`)).href,
  ]);
  const widths = [0, 1].map((i) => Math.max(...[["API", "URL"][i]!.length, ...rows.map((r) => r[i]!.length)]));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c)).join("  ");
  const overlaid = Object.keys(documents).length ? `, with the overlay(s) ${values.overlay!.join(", ")}` : "";
  console.log(`Prism mocks (${values.dynamic ? "dynamic data" : "static examples"}${overlaid}), Ctrl-C to stop:\n`);
  console.log(line(["API", "URL", "Docs"]));
  for (const row of rows) console.log(line(row));
  console.log(
    `\nPick a documented response with the Prefer header, e.g. \`Prefer: code=403\`, \`Prefer: example=<name>\` (success examples) or \`Prefer: code=<status>, example=<name>\`.`,
  );

  const reason = await stopRequested;
  console.error(`\n${reason}: stopping the mocks...`);
  // Open keep-alive connections must not hold the ports: stop waiting for them after a second.
  await Promise.race([running.stop(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  return 0;
}
