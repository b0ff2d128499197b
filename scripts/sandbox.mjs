// `npm run sandbox`: `contracts sandbox` from this checkout, compiled first only when a source is newer than its
// output (it compiled at every start, 5 s, before). Plain JavaScript so that it runs before anything is compiled.
import { runCli } from "./build-if-stale.mjs";

await runCli("sandbox");
