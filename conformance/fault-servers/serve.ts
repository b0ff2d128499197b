// Runs one fault server (or a correct reference server) by hand, to see a conformance failure for yourself:
//   node dist/conformance/fault-servers/serve.js links-server-error 4590
//   node dist/conformance/fault-servers/serve.js links 4590            (the correct links server)
// It prints the URL and the environment to pass to `contracts conform`.
import { API_NAMES, type ApiName } from "../../lib/contract/index.js";
import { FAULT_SERVER_CREDENTIALS, FAULTS, startReferenceServer } from "./faults.js";

const [name, port] = process.argv.slice(2);
const fault = FAULTS.find((f) => f.name === name);
if (!fault && !(API_NAMES as readonly string[]).includes(name ?? "")) {
  process.stderr.write(
    `usage: serve.js <fault|api> [port]\nfaults:\n${FAULTS.map((f) => `  ${f.name.padEnd(40)} ${f.check}: ${f.breaks}`).join("\n")}\napis: ${API_NAMES.join(", ")}\n`,
  );
  process.exit(2);
}
const api = fault?.api ?? (name as ApiName);
const server = fault ? await fault.start(Number(port ?? 0)) : await startReferenceServer(api, Number(port ?? 0));
const env = Object.entries(FAULT_SERVER_CREDENTIALS).filter(([key]) => key.startsWith(api.toUpperCase()));
process.stdout.write(
  `${fault ? `fault ${fault.name} (${fault.breaks}; ${fault.check} must catch it)` : `reference ${api} server`} at ${server.url}\n`,
);
process.stdout.write(
  `${env.map(([k, v]) => `${k}='${v}'`).join(" ")} contracts conform ${api} --base-url ${server.url}${fault ? ` ${fault.args.join(" ")}` : ""}\n`,
);
const stop = () => void server.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
