// The type errors of modules written beside the runner's code, compiled with the repository's options, in a child
// process: a TypeScript program over the repository takes a minute of CPU on a loaded machine, and a test worker
// whose event loop is blocked that long misses Vitest's 60 s RPC deadline ("Timeout calling onTaskUpdate"), which
// fails the run although every test passed.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { repoRoot } from "./processes.js";

/** Where each source is compiled: beside the judge, so that `./verdict.js` resolves. */
const file = join(repoRoot, "conformance/judge/probe-check-name.ts");

function typeErrors(sources: string[]): string[][] {
  const { config } = ts.readConfigFile(join(repoRoot, "tsconfig.json"), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, repoRoot);
  // The parsed files of the libraries and the repository, shared by the programs: parsing them is most of the work.
  const parsed = new Map<string, ts.SourceFile | undefined>();
  return sources.map((source) => {
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    host.readFile = (path) => (path === file ? source : readFile(path));
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (path) => path === file || fileExists(path);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (path, ...rest) => {
      if (path === file) return getSourceFile(path, ...rest);
      if (!parsed.has(path)) parsed.set(path, getSourceFile(path, ...rest));
      return parsed.get(path);
    };
    const program = ts.createProgram([file], { ...options, noEmit: true }, host);
    return ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
  });
}

const thisFile = fileURLToPath(import.meta.url);

/** Each source's type errors, in the order given. */
export function typeErrorsBesideTheJudge(sources: string[]): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ["--import", "tsx", thisFile],
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the type check failed to run: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as string[][]);
      },
    );
    child.stdin!.end(JSON.stringify(sources));
  });
}

if (process.argv[1] === thisFile) {
  process.stdout.write(JSON.stringify(typeErrors(JSON.parse(readFileSync(0, "utf8")) as string[])));
}
