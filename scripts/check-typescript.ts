// `npm run check:ts`: the type check (tsc's errors) and the linter (typescript-eslint's rules, eslint.config.js) over
// one TypeScript program of tsconfig.json. The type-aware rules need the checker of the whole program anyway, so
// building it once for both saves the second build and check (about 9 of 35 CPU-seconds, measured side by side with
// `eslint .` and `vue-tsc -p tsconfig.json`). The .vue components are vue-tsc's (`npm run check:vue`).
import ts from "typescript";
import { ESLint } from "eslint";
import { fromPackageRoot } from "../lib/paths.js";

const root = fromPackageRoot();

/** The program of tsconfig.json, as `tsc -p tsconfig.json` builds it. */
function createProgram(): { program: ts.Program; configErrors: readonly ts.Diagnostic[] } {
  const configErrors: ts.Diagnostic[] = [];
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic: ts.Diagnostic) => configErrors.push(diagnostic),
  };
  const config = ts.getParsedCommandLineOfConfigFile(fromPackageRoot("tsconfig.json"), {}, host);
  if (!config) return { program: ts.createProgram([], {}), configErrors };
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
  });
  return { program, configErrors: [...configErrors, ...config.errors] };
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => root,
  getNewLine: () => "\n",
};

async function main(): Promise<number> {
  const { program, configErrors } = createProgram();
  // Fail closed: a check that read no file did not run.
  const noFiles = () =>
    new Error(
      `check:ts read no TypeScript file: ${ts.formatDiagnostics(configErrors, formatHost) || "is tsconfig.json there?"}`,
    );
  if (program.getRootFileNames().length === 0) throw noFiles();
  const diagnostics = [...configErrors, ...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length > 0) {
    // Coloured with the source lines on a terminal, one line each otherwise, as tsc prints them.
    process.stdout.write(
      process.stdout.isTTY
        ? ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost)
        : ts.formatDiagnostics(diagnostics, formatHost),
    );
    process.stdout.write(`\ntsc: ${diagnostics.length} error${diagnostics.length === 1 ? "" : "s"}\n`);
  }
  // typescript-eslint's documented way to lint with a program built elsewhere: `programs` in place of `project`.
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { project: false, programs: [program] } } },
  });
  const results = await eslint.lintFiles(["."]);
  if (results.length === 0) throw noFiles();
  const problems = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
  const formatter = await eslint.loadFormatter("stylish");
  process.stdout.write(await formatter.format(results));
  // Warnings fail the check as errors do (`eslint --max-warnings=0`).
  return diagnostics.length > 0 || problems > 0 ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
