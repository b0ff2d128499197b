// `contracts schemathesis <api> [--out <dir>]`: writes a ready Schemathesis project for one API (project.ts) and
// prints the two ways to run it.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseApiName, UsageError } from "../../lib/cli.js";
import { parseNonceMode } from "../send/nonces.js";
import { runCommands, SCHEMATHESIS_VERSION, schemathesisProject } from "./project.js";

export const SCHEMATHESIS_USAGE = `contracts schemathesis <api> [--out <dir>] [--allow-writes] [--operation <id>]... [--nonce <mode>]
  Write a Schemathesis ${SCHEMATHESIS_VERSION} project for one API (default folder: schemathesis-<api>): a flavour of
  the bundle, schemathesis.toml and a hooks module with our contract's checks, then print how to run it.
  --allow-writes     also create and update (as \`contracts conform\`); operations that change credentials or
                     cannot be undone run only when named with --operation as well
  --operation <id>   only this operation; repeatable
  --nonce <mode>     pay: how the hooks number nonces, as \`contracts conform --nonce\`: seconds (default: never
                     ahead of the clock), milliseconds, microseconds or counter:<start>
`;

export function runSchemathesisCommand(
  argv: string[],
  io: { out: (text: string) => void } = { out: (text) => void process.stdout.write(text) },
): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: "string" },
      "allow-writes": { type: "boolean", default: false },
      operation: { type: "string", multiple: true },
      nonce: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(SCHEMATHESIS_USAGE);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError("expected exactly one API: contracts schemathesis <api> [--out <dir>]");
  const api = parseApiName(positionals[0]!);
  const dir = resolve(values.out ?? `schemathesis-${api}`);
  const { files, excluded } = schemathesisProject(api, {
    allowWrites: values["allow-writes"],
    operations: values.operation ?? [],
    nonce: parseNonceMode(values.nonce),
  });
  for (const id of values.operation ?? [])
    if (excluded[id]) throw new UsageError(`--operation ${id} cannot run: ${excluded[id]}`);
  // The official image runs as uid 1000: the files must be readable and the reports folder writable by it.
  mkdirSync(join(dir, "reports"), { recursive: true });
  chmodSync(dir, 0o755);
  chmodSync(join(dir, "reports"), 0o777);
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), content);
    chmodSync(join(dir, name), 0o644);
  }
  const { local, docker } = runCommands(api, dir);
  const left = Object.entries(excluded).map(([id, reason]) => `  ${id}: ${reason}\n`);
  io.out(
    `Wrote a Schemathesis ${SCHEMATHESIS_VERSION} project for ${api} to ${dir}\n` +
      (left.length ? `Left out (as \`contracts conform\` does):\n${left.join("")}` : "") +
      `Run it with a local Schemathesis (pip install schemathesis==${SCHEMATHESIS_VERSION}):\n  ${local}\n` +
      `or with the official image (the same files, mounted; reports in ${join(dir, "reports")}):\n  ${docker}\n`,
  );
  return 0;
}
