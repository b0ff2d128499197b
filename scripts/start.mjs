// `npm start`: `contracts mock` from this checkout, compiled first only when a source is newer than its output.
// Plain JavaScript so that it runs before anything is compiled. It runs the CLI in its own process (no child), and
// package.json starts it with `exec`, so that npm's own child is this process: the SIGINT or SIGTERM npm passes on
// reaches the mocks (a `sh -c` in between would die of SIGTERM and hold SIGINT back). Extra arguments go to the
// command: `npm start -- --api links --dynamic`.
import { pathToFileURL } from "node:url";
import { buildIfStale, cli } from "./build-if-stale.mjs";

const tsc = buildIfStale();
if (tsc && tsc.status !== 0) process.exit(tsc.status ?? 1);

process.argv = [process.execPath, cli, "mock", ...process.argv.slice(2)];
await import(pathToFileURL(cli).href);
