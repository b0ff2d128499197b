// `npm start`: `contracts mock` from this checkout, compiled first only when a source is newer than its output.
// Plain JavaScript so that it runs before anything is compiled.
import { runCli } from "./build-if-stale.mjs";

await runCli("mock");
