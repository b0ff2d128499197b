#!/usr/bin/env node
// The one CLI of this package: `contracts <command> [options]`. Each command lives beside the code it drives.
// Only the signal watch is loaded up front: a long-running command watches the signals before it loads anything
// (lib/cli.js alone loads the contracts), so that a signal during its start-up stops it cleanly once it is up.
import module from "node:module";
import { untilSignal } from "../lib/signals.js";

// Node keeps the compiled code of the modules a command loads (Prism's CommonJS tree most of all) in its temporary
// directory and reuses it on the next start, as tsc does: a mock start takes about a fifth less CPU. Node's own
// variables still apply: NODE_COMPILE_CACHE names another directory, NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();

interface Command {
  summary: string;
  /** Runs until a signal (with these arguments): the signals are watched before the command loads (lib/signals.ts). */
  longRunning?: (argv: string[]) => boolean;
  run: (argv: string[]) => Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  mock: {
    summary: "start Prism mock servers for the four APIs and print their URLs",
    longRunning: () => true,
    run: async (argv) => (await import("../mock/cli.js")).runMockCommand(argv),
  },
  sandbox: {
    summary: "start the stateful sandbox of the four APIs (real sign-in, CRUD, payments) and print its URLs",
    longRunning: (argv) => argv[0] !== "sign-in", // `contracts sandbox sign-in` signs in at a running one and ends
    run: async (argv) => (await import("../mock/sandbox/cli.js")).runSandboxCommand(argv),
  },
  conform: {
    summary: "check a live deployment against a contract with generated requests",
    run: async (argv) => (await import("../conformance/conform-command.js")).runConformCommand(argv),
  },
  schemathesis: {
    summary: "write a ready Schemathesis project (bundle, config, hooks) for one API and print how to run it",
    run: async (argv) => (await import("../conformance/schemathesis/cli.js")).runSchemathesisCommand(argv),
  },
  proxy: {
    summary: "a recording reverse proxy that judges the traffic to a deployment against a contract",
    longRunning: (argv) => !argv.includes("--help") && !argv.includes("-h"),
    run: async (argv) => (await import("../conformance/proxy/cli.js")).runProxyCommand(argv),
  },
  overlay: {
    summary: "record a deployment's proven deviations as an OpenAPI Overlay (record), or validate one (check)",
    run: async (argv) => (await import("../conformance/overlay/cli.js")).runOverlayCommand(argv),
  },
  diff: {
    summary: "compare two versions of a contract; exit code 1 on a breaking change",
    run: async (argv) => (await import("../lib/diff/cli.js")).runDiffCommand(argv),
  },
};

/** The summaries start two columns after the longest command name. */
const NAME_WIDTH = Math.max(...Object.keys(COMMANDS).map((name) => name.length)) + 2;

const USAGE = `Usage: contracts <command> [options]   (contracts <command> --help for its options)

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(NAME_WIDTH)}${command.summary}`)
  .join("\n")}
`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    const { UsageError } = await import("../lib/cli.js");
    throw new UsageError(`unknown command "${name}"; run \`contracts --help\``);
  }
  if (command.longRunning?.(rest)) void untilSignal();
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    const { cliFailure } = await import("../lib/cli.js");
    const { code, text } = cliFailure(error);
    console.error(text);
    process.exit(code);
  },
);
