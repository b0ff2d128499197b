// npm-run-all2 ships no types (nor does DefinitelyTyped): the part of its Node API that scripts/run-parallel.mjs uses.
declare module "npm-run-all2" {
  interface RunAllOptions {
    parallel?: boolean;
    continueOnError?: boolean;
    aggregateOutput?: boolean;
    stdin?: NodeJS.ReadableStream | null;
    stdout?: NodeJS.WritableStream | null;
    stderr?: NodeJS.WritableStream | null;
  }
  /** Runs the npm scripts; rejects with the first failure once all have ended (continueOnError). */
  export default function runAll(patterns: string[], options?: RunAllOptions): Promise<unknown>;
}
