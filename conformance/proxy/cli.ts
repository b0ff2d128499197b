// `contracts proxy <api> --target <url>`: a recording reverse proxy in front of a deployment (staging, the sandbox).
// Traffic passes unchanged (forward.ts); each exchange, once its response has gone, is judged by the passive judge
// (conformance/passive/) with the active run's checks and verdict rules; failures are printed as they are found and
// the reports of `contracts conform` are written when the proxy stops (Ctrl-C, SIGTERM, SIGHUP).
import { installOverlay } from "../../lib/contract/overlay.js";
import { forgetLookups } from "../contract/lookup.js";
import { parseArgs } from "node:util";
import { parseApiName, parsePort, UsageError } from "../../lib/cli.js";
import { API_NAMES, type ApiName } from "../../lib/contract/index.js";
import { untilSignal } from "../../lib/signals.js";
import { anyApplies, selectChecks } from "../judge/checks.js";
import { checkWritable, writeReports } from "../finish-run.js";
import { credentialsFrom } from "../cli-options.js";
import { causesSummary, groupCauses } from "../report/causes.js";
import { type RunReport, verdict } from "../report/report.js";
import { ProxyStartError } from "./forward.js";
import { type JudgingProxy, startJudgingProxy } from "./judging.js";
import type { CheckName } from "../model/check-registry.js";

/** identity on 4030, links 4031, catalog 4032, pay 4033: beside the mocks (4010-) and the sandbox (4020-). */
const DEFAULT_BASE_PORT = 4030;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export const PROXY_USAGE = `contracts proxy <api> --target <url> [--port <n>] [--host <host>] [--json <file>] [--junit <file>]
                [--html <file>] [--max-body <bytes>] [--check <name>]... [--exclude-check <name>]... [--strict]
  A recording reverse proxy for a deployment you may not send test requests to: put it in front of staging (or the
  sandbox) and point your frontend, partner or client at it. Every request goes to --target unchanged and every
  response comes back unchanged, streamed, never delayed or blocked; only the Host header names the target, and
  hop-by-hop fields stay on their own connection (RFC 9110 §7.6.1). After each response has been passed on, the
  exchange is judged with the checks and verdict rules of \`contracts conform\` plus the checks only real traffic
  allows (nonces, rate-limit headers, idempotency, issued tokens). Failures are printed as they are found; the
  reports are written when the proxy stops (Ctrl-C, SIGTERM). Secrets in the traffic never reach an output.
  --target <url>       the deployment: an http(s) URL; a path in it goes before every request's path (env
                       PROXY_TARGET); an https target's certificate is checked (a private CA: NODE_EXTRA_CA_CERTS)
  --port <n>           port to listen on (default: identity 4030, links 4031, catalog 4032, pay 4033; 0 picks one)
  --host <host>        address to listen on (default 127.0.0.1: loopback only)
  --max-body <bytes>   the most of each request and response body kept for judging (default ${DEFAULT_MAX_BODY_BYTES});
                       larger bodies pass whole but are judged as too large
  --json <file>        write the JSON report on exit: checks, failures, gaps and every judged exchange, redacted
  --junit <file>       write a JUnit XML report on exit      --html <file>   write the HTML report on exit
  --check <name>       only this check; repeatable           --exclude-check <name>  all but this one; repeatable
  --strict             a broken x-assumption fails instead of warning
  --overlay <file>     judge against the contract with this OpenAPI Overlay 1.0 applied (see contracts conform)
  Credentials come from the environment as for \`contracts conform\` (LINKS_TOKEN, CATALOG_API_KEY,
  CATALOG_READ_API_KEY, PAY_SHOP_ID): a request carrying another credential need not be accepted. Without them, a
  credential counts once the deployment accepted a request carrying it.

Exit codes: 0 nothing failed, 1 a check failed, the judge failed on an exchange or none was judged, 2 usage error
or a port in use.
`;

const OPTIONS = {
  target: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  "max-body": { type: "string" },
  json: { type: "string" },
  junit: { type: "string" },
  html: { type: "string" },
  check: { type: "string", multiple: true },
  "exclude-check": { type: "string", multiple: true },
  strict: { type: "boolean", default: false },
  overlay: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

type ProxyValues = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

interface ProxySettings {
  api: ApiName;
  target: URL;
  host: string;
  port: number;
  maxBodyBytes: number;
  checks: Set<CheckName>;
}

function settingsFrom(values: ProxyValues, positionals: string[], env: NodeJS.ProcessEnv): ProxySettings {
  if (positionals.length !== 1)
    throw new UsageError("expected exactly one API: contracts proxy <identity|links|catalog|pay> --target <url>");
  const api = parseApiName(positionals[0]!);
  const targetText = values.target ?? env.PROXY_TARGET;
  if (!targetText) throw new UsageError("--target is required (or PROXY_TARGET): the deployment to forward to");
  const target = URL.canParse(targetText) ? new URL(targetText) : undefined;
  if (!target || (target.protocol !== "http:" && target.protocol !== "https:") || target.search || target.hash)
    throw new UsageError(`--target must be an http(s) URL without query or fragment, got "${targetText}"`);
  const port = values.port === "0" ? 0 : values.port ? parsePort(values.port, "--port") : defaultPort(api);
  const maxBody = values["max-body"] ?? String(DEFAULT_MAX_BODY_BYTES);
  if (!/^\d+$/.test(maxBody) || Number(maxBody) < 1)
    throw new UsageError(`--max-body takes a number of bytes (at least 1), got "${maxBody}"`);
  checkWritable(values.json, "--json");
  checkWritable(values.junit, "--junit");
  checkWritable(values.html, "--html");
  const checks = selectChecks(values.check, values["exclude-check"]);
  if (!anyApplies(checks, api))
    throw new UsageError(
      `none of the selected checks applies to ${api}; \`contracts conform --list-checks\` shows which do`,
    );
  return { api, target, host: values.host ?? "127.0.0.1", port, maxBodyBytes: Number(maxBody), checks };
}

function defaultPort(api: ApiName): number {
  return DEFAULT_BASE_PORT + API_NAMES.indexOf(api);
}

export async function runProxyCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (values.help) {
    process.stdout.write(PROXY_USAGE);
    return 0;
  }
  const settings = settingsFrom(values, positionals, env);
  // The judge reads the overlaid contract for as long as the proxy runs (this process ends with it).
  if (values.overlay) await installOverlay(values.overlay, settings.api, forgetLookups);
  // Watched from the start (the CLI began before it loaded this module): a signal during start-up stops the proxy as
  // soon as it is up, and writes its (empty) reports.
  const stopRequested = untilSignal();
  let proxy: JudgingProxy;
  try {
    proxy = await startJudgingProxy({
      api: settings.api,
      target: settings.target,
      host: settings.host,
      port: settings.port,
      maxBodyBytes: settings.maxBodyBytes,
      checks: settings.checks,
      strict: values.strict,
      credentials: credentialsFrom({}, env),
      onLine: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    if (error instanceof ProxyStartError) throw new UsageError(error.message);
    throw error;
  }
  const judge = proxy.judge;
  process.stdout.write(
    `contracts proxy: ${settings.api} at ${proxy.url} -> ${judge.redact(settings.target.href)}\n` +
      `Each exchange is judged against the ${settings.api} contract after its response has been passed on; failures show below.\n` +
      `Ctrl-C to stop and write the reports.\n`,
  );
  if (!["127.0.0.1", "::1", "localhost"].includes(settings.host))
    process.stderr.write(
      `contracts proxy: listening on ${settings.host}, not loopback only: whoever reaches it reaches the target through it\n`,
    );
  const reason = await stopRequested;
  process.stderr.write(`\n${reason}: stopping the proxy; exchanges in flight finish first...\n`);
  return finish(await proxy.stop(), proxy, values);
}

/**
 * Writes the reports and returns the exit code: 1 when a check failed, an exchange could not be judged for an
 * error of the judge's own, or nothing at all was judged.
 */
function finish(report: RunReport, proxy: JudgingProxy, values: ProxyValues): number {
  const redact = (text: string) => proxy.judge.redact(text);
  writeReports(report.api, report, values, undefined, redact, (text) => process.stdout.write(text));
  const { newFailures, couldNotRun } = verdict(report);
  const judged = report.passive?.judged ?? 0;
  const entries = report.passive?.entries ?? 0;
  if (newFailures.length > 0 || couldNotRun.length > 0) {
    process.stderr.write(
      `contracts proxy: ${causesSummary(groupCauses(report.api, newFailures))} on ${report.api} in ${judged} judged exchange(s) of ${entries}\n`,
    );
    return 1;
  }
  if (proxy.judgeErrors > 0) {
    process.stderr.write(
      `contracts proxy: ${proxy.judgeErrors} exchange(s) could not be judged (listed above and in the report)\n`,
    );
    return 1;
  }
  if (judged === 0) {
    process.stderr.write(`contracts proxy: no exchange of ${report.api} was judged (${entries} passed)\n`);
    return 1;
  }
  process.stderr.write(`contracts proxy: no failures on ${report.api} in ${judged} judged exchange(s) of ${entries}\n`);
  return 0;
}
