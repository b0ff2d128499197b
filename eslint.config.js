// @ts-check
// typescript-eslint with type information, and the size limits of the house style (a file reads in one sitting, a
// function fits on a screen). `npm run check:ts` (scripts/check-typescript.ts) lints with it over the program that
// it type-checks; editors and `npx eslint <file>` build the program of tsconfig.json from `project` below.
import { fileURLToPath } from "node:url";
import { includeIgnoreFile } from "@eslint/compat";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { STAGE_RULES } from "./eslint.stages.js";

export default tseslint.config(
  // What git ignores, ESLint ignores: the builds, node_modules and what a running docs build or Vitest writes into the
  // checkout for a moment (VitePress's .temp/, the config Vite bundles beside its .ts as *.timestamp-*.mjs): check:ts
  // runs beside Vitest in npm test, and such a file, found by the lint and not in the program, fails it.
  includeIgnoreFile(fileURLToPath(new URL(".gitignore", import.meta.url)), "what git ignores"),
  {
    ignores: [
      "generated/",
      // Type-checked by the package test against the installed tarball, with its own tsconfig.
      "test/release/consumer-app/",
      // Type-checked by test/third-party/generators.test.ts beside the clients it generates.
      "test/third-party/quirks/",
      "**/*.vue",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // One program for the whole repository (tsconfig.json covers every linted file); the project service built
      // its programs file by file and took half as long again.
      parserOptions: { project: "./tsconfig.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "max-lines": ["error", { max: 400 }],
      // Prettier keeps code within 120 columns but wraps neither comments nor strings; comments are checked here, and
      // a long string (a message, a test name, an HTML fixture) stays whole so that it can be searched for.
      "max-len": [
        "error",
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      "max-lines-per-function": ["error", { max: 80 }],
      "@typescript-eslint/no-explicit-any": "error",
      // `_name` marks a parameter or a destructured property that is left out on purpose.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests poke at parsed JSON and library internals on purpose; the `any` budget is for production code.
    files: ["test/**"],
    rules: {
      // A describe block is as long as its list of cases; the cases themselves are read one at a time.
      "max-lines-per-function": "off",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/unbound-method": "off",
      // A child run synchronously blocks the worker: past 60 s it misses vitest's own messages ("Timeout calling
      // onTaskUpdate") and the run fails with every test green. test/support/processes.ts has runToEnd and gitOutput.
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "node:child_process",
              importNames: ["execSync", "execFileSync", "spawnSync"],
              message: "Use runToEnd or gitOutput (test/support/processes.ts): a blocked worker fails the run.",
            },
          ],
        },
      ],
    },
  },
  {
    // The global setup runs in vitest's main process before any worker starts.
    files: ["test/support/global-setup.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  // The conformance runner's stages go one way: plan, then send, then judge, then report (eslint.stages.js).
  ...STAGE_RULES,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
