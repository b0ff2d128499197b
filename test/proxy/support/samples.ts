// The TypeScript samples of the reference (x-codeSamples of the readers' bundles, which the docs site shows and
// test/docs/samples.test.ts type-checks), run as a reader runs them: compiled to JavaScript, importing the built
// clients as `@platform/contracts/<api>` resolves, pointed at a given base URL, one after the other in one Node
// process. Every fetch they make is recorded (the request, the response's status, headers and body bytes).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { type ApiName, loadBundle } from "../../../lib/contract/index.js";
import { operationsOf } from "../../../scripts/docs/document.js";
import { readerBundle, samplesOf } from "../../../scripts/docs/reader-bundle.js";
import { repoRoot, spawnCommand } from "../../support/processes.js";

/** The sandbox's port of each API in the samples (4020-4023). */
const SAMPLE_PORTS: Record<ApiName, string> = { identity: "4020", links: "4021", catalog: "4022", pay: "4023" };

export interface ClientSample {
  api: ApiName;
  operationId: string;
  /** JavaScript; `__BASE_URL__` stands where the sample names the sandbox. */
  code: string;
}

/** The generated TypeScript samples of `api`, compiled, with the sandbox's address left to fill in. */
export function clientSamples(api: ApiName): ClientSample[] {
  return operationsOf(readerBundle(api, loadBundle(api))).flatMap((op) =>
    samplesOf(op.operation)
      .filter((sample) => sample.lang === "TypeScript")
      .map((sample) => {
        const source = sample.source
          .replaceAll(
            `"@platform/contracts/${api}"`,
            JSON.stringify(pathToFileURL(`${repoRoot}dist/clients/${api}.js`).href),
          )
          .replaceAll(`http://127.0.0.1:${SAMPLE_PORTS[api]}`, "__BASE_URL__");
        const { outputText } = ts.transpileModule(source, {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        });
        return { api, operationId: op.operationId, code: outputText };
      }),
  );
}

export interface RecordedCall {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The response body, base64 (bytes, not text: a byte-for-byte comparison). */
  body: string;
}

export interface SamplesRun {
  /** What each sample printed (console.log), in order. */
  printed: string[];
  calls: RecordedCall[];
}

const RUNNER = `
import { format } from "node:util";
const calls = [];
const send = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  const response = await send(request);
  const body = Buffer.from(await response.clone().arrayBuffer()).toString("base64");
  calls.push({ method: request.method, url: request.url, status: response.status, headers: Object.fromEntries(response.headers), body });
  return response;
};
const printed = [];
const log = console.log;
for (const file of process.argv.slice(2)) {
  const lines = [];
  console.log = (...args) => lines.push(format(...args));
  try { await import(file); } catch (error) { lines.push("threw: " + error.message); }
  printed.push(lines.join("\\n"));
}
console.log = log;
process.stdout.write(JSON.stringify({ printed, calls }));
`;

/** Runs the samples in order in one Node process, each pointed at `baseUrls[api]`. */
export async function runSamples(
  samples: ClientSample[],
  baseUrls: Partial<Record<ApiName, string>>,
): Promise<SamplesRun> {
  const directory = mkdtempSync(join(tmpdir(), "proxy-samples-"));
  const files = samples.map((sample, index) => {
    const file = join(directory, `${String(index).padStart(3, "0")}-${sample.operationId}.mjs`);
    writeFileSync(file, sample.code.replaceAll("__BASE_URL__", baseUrls[sample.api]!));
    return file;
  });
  writeFileSync(join(directory, "runner.mjs"), RUNNER);
  const run = spawnCommand(process.execPath, [join(directory, "runner.mjs"), ...files], directory);
  const code = await run.exit;
  if (code !== 0) throw new Error(`the samples exited with ${code}: ${run.stderr()}`);
  return JSON.parse(run.stdout()) as SamplesRun;
}
