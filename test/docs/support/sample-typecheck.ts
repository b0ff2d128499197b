// Type-checks docs samples as ES modules inside the repository, with `@platform/contracts/<api>` mapped to clients/
// (and the other exports to their sources), the way an integrator's code sees the clients.
// The check builds a whole TypeScript program (seconds of CPU), so tests run it in a child process: a synchronous
// program in a vitest worker blocks the worker's event loop long enough for vitest's own RPC calls to time out.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { API_NAMES } from "../../../lib/contract/index.js";
import type { Sample } from "./samples.js";

// Run as a plain node script too (below), so not from test/support/processes.ts, which registers vitest hooks.
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** Diagnostics of the samples, each as `<page>:<line>: <message>`; empty when they all type-check. */
function typeCheck(blocks: Sample[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(repoRoot, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error("cannot read tsconfig.json");
  const options: ts.CompilerOptions = {
    ...config.options,
    noEmit: true,
    baseUrl: repoRoot,
    // Only the entry points @platform/contracts exports (packages/contracts/package.json).
    paths: {
      ...Object.fromEntries(API_NAMES.map((api) => [`@platform/contracts/${api}`, [`clients/${api}.ts`]])),
      ...Object.fromEntries(
        API_NAMES.map((api) => [`@platform/contracts/types/${api}`, [`generated/types/${api}.ts`]]),
      ),
      "@platform/contracts/pay/node-nonce": ["clients/node-nonce.ts"],
      // The one export of @platform/contracts-tools that code imports (packages/contracts-tools/package.json).
      "@platform/contracts-tools/msw": ["mock/msw.ts"],
    },
    allowImportingTsExtensions: true,
    noUnusedLocals: true,
  };
  // Virtual files beside their page, so that module resolution finds the repository's node_modules.
  const files = new Map(blocks.map((block) => [join(repoRoot, `${block.page}.${block.line}.sample.mts`), block]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name)?.code ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const block = files.get(name);
    return block
      ? ts.createSourceFile(name, block.code, language, true)
      : getSourceFile.call(host, name, language, ...rest);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  // The samples' own diagnostics only: the files they import are type-checked by `npm run check:ts`, and asking for
  // theirs too (getPreEmitDiagnostics) would check every one of them in full, for nothing.
  const sampleFiles = [...files.keys()].map((name) => program.getSourceFile(name)!);
  return sampleFiles
    .flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)])
    .map((d) => {
      const block = files.get(d.file!.fileName)!;
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${block.page}:${block.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
}

const thisFile = fileURLToPath(import.meta.url);

/** typeCheck in a child process (node with tsx), so that the caller's event loop keeps running meanwhile. */
export async function typeCheckInChildProcess(blocks: Sample[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ["--import", "tsx", thisFile],
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the sample type check failed to run: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as string[]);
      },
    );
    child.stdin!.end(JSON.stringify(blocks));
  });
}

if (process.argv[1] === thisFile) {
  process.stdout.write(JSON.stringify(typeCheck(JSON.parse(readFileSync(0, "utf8")) as Sample[])));
}
