// `contracts conform <api> --base-url <url>`: property-based conformance checking of a live deployment. The command
// (conform-command.ts) hands a run here; a run of recorded traffic (--har, --from-json) goes to passive/cli.ts.
import { budgetText, parseDuration, resolveBudget } from "./plan/budget.js";
import { nonceModeText, parseNonceMode } from "./send/nonces.js";
import { parseApiName, parseRequestRate, UsageError } from "../lib/cli.js";
import { loadContract } from "../lib/contract/index.js";
import { CREDENTIAL_ENV, PROFILES } from "./apis.js";
import { anyApplies, selectChecks } from "./judge/checks.js";
import { runConformance } from "./runner.js";
import { abortOnSignals, type ConformConsole, progressPrinter } from "./report/console.js";
import { Secrets } from "./report/secrets.js";
import { DEFAULT_MAX_WRITES } from "./plan/write-budget.js";
import { type ConformValues, credentialsFrom, identityOptionsFrom } from "./cli-options.js";
import { checkWritable, finishRun } from "./finish-run.js";
import { baselineLists, readBaseline } from "./report/baseline.js";

function positiveInteger(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new UsageError(`${flag} must be a whole number, got "${text}"`);
  return value;
}

/** A live run of one API: its settings checked, the run, its reports and exit code. */
export async function runLiveCommand(
  values: ConformValues,
  positionals: string[],
  env: NodeJS.ProcessEnv,
  io: ConformConsole,
): Promise<number> {
  const { api, baseUrl, credentials, checks, identity, rateLimit, seed, baseline, shard, secrets, timeoutMs } =
    runSettings(values, positionals, env);
  const interrupt = abortOnSignals(io);
  if (
    values.concurrency !== undefined &&
    Number(values.concurrency) > 1 &&
    loadContract(api).document.info["x-rate-limit"]
  )
    io.err(
      `contracts conform: --concurrency ignored: the ${api} contract declares a rate limit, so requests go one at a time\n`,
    );
  const budget = resolveBudget(
    { ...budgetOptions(values), allowWrites: values["allow-writes"], shard },
    loadContract(api).document.info["x-rate-limit"] as { limit: number; windowSeconds: number } | undefined,
  );
  const within = (budget.maxRequests ?? budget.maxDurationMs) ? `, budget ${budgetText(budget)}` : "";
  const nonce = parseNonceMode(values.nonce);
  const nonces = api === "pay" ? `, nonces ${nonceModeText(nonce)}` : "";
  const banner = `conform ${api} at ${secrets.redact(baseUrl)}: seed ${seed}, up to ${positiveInteger(values["max-examples"], "--max-examples", 20)} valid and invalid cases per operation${values["allow-writes"] ? ", writes allowed" : ", read-only"}${within}${nonces}`;
  const known = baseline ? baselineLists(baseline) : undefined;
  const progress = progressPrinter(io, api, banner, (text) => secrets.redact(text), known);
  try {
    const report = await runConformance({
      api,
      baseUrl: baseUrl.replace(/\/$/, ""),
      credentials,
      maxExamples: positiveInteger(values["max-examples"], "--max-examples", 20),
      seed,
      operations: values.operation ?? [],
      checks,
      allowWrites: values["allow-writes"],
      rateLimit,
      timeoutMs,
      maxShrinks: positiveInteger(values["max-shrinks"], "--max-shrinks", 30),
      ...budgetOptions(values),
      signal: interrupt.signal,
      onProgress: progress.event,
      identity,
      strict: values.strict,
      shard,
      secrets,
      concurrency: positiveInteger(values.concurrency, "--concurrency", 1) || 1,
      maxWrites: positiveInteger(values["max-writes"], "--max-writes", DEFAULT_MAX_WRITES),
      nonce,
      maxResponseTimeMs:
        values["max-response-time"] === undefined
          ? undefined
          : positiveInteger(values["max-response-time"], "--max-response-time", 0),
    });
    progress.done();
    return finishRun(api, report, values, baseline, secrets, io);
  } finally {
    interrupt.release();
  }
}

/** --max-requests (a number, or `none` for no budget) and --max-duration, checked. */
function budgetOptions(values: ConformValues): { maxRequests?: number; maxDurationMs?: number } {
  const requests = values["max-requests"];
  const duration = values["max-duration"];
  const options: { maxRequests?: number; maxDurationMs?: number } = {};
  if (requests !== undefined) {
    options.maxRequests = requests === "none" ? Number.POSITIVE_INFINITY : Number(requests);
    if (!(options.maxRequests >= 2) || (requests !== "none" && !/^\d+$/.test(requests)))
      throw new UsageError(`--max-requests takes a number of requests (2 or more) or none, got "${requests}"`);
  }
  if (duration !== undefined) {
    options.maxDurationMs = parseDuration(duration);
    if (!options.maxDurationMs)
      throw new UsageError(`--max-duration takes a time such as 90s, 2m or 1m30s, got "${duration}"`);
  }
  return options;
}

/** The run's settings from the options and the environment, checked; a UsageError names what is wrong. */
function runSettings(values: ConformValues, positionals: string[], env: NodeJS.ProcessEnv) {
  if (positionals.length !== 1)
    throw new UsageError("expected exactly one API: contracts conform <identity|links|catalog|pay> --base-url <url>");
  const api = parseApiName(positionals[0]!);
  const baseUrl = values["base-url"] ?? env.CONFORM_BASE_URL;
  if (!baseUrl) throw new UsageError("--base-url is required (or CONFORM_BASE_URL)");
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
  } catch {
    throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
  }
  checkWritable(values.json, "--json");
  checkWritable(values.junit, "--junit");
  checkWritable(values.html, "--html");
  const credentials = credentialsFrom(values, env);
  for (const [key, flag] of PROFILES[api].needs) {
    if (!credentials[key]) throw new UsageError(`${api} needs ${flag} (or ${CREDENTIAL_ENV[key]})`);
  }
  const checks = selectChecks(values.check, values["exclude-check"]);
  if (!anyApplies(checks, api)) {
    throw new UsageError(
      checks.size === 0
        ? "every check is excluded: nothing to run"
        : `none of the selected checks (${[...checks].join(", ")}) applies to ${api}; \`contracts conform --list-checks\` shows which do`,
    );
  }
  const identity = identityOptionsFrom(values, env);
  const rateLimit = values["rate-limit"] === undefined ? undefined : parseRequestRate(values["rate-limit"]);
  if (values["rate-limit"] !== undefined && !rateLimit)
    throw new UsageError(
      `--rate-limit takes a number of requests per minute (30, 30/min), per second or hour (5/s, 900/h), got "${values["rate-limit"]}"`,
    );
  const seed = positiveInteger(values.seed, "--seed", Math.floor(Math.random() * 2 ** 31));
  // 0 would abort every request before it is answered (reported as an unreachable target); beyond 2^31-1 ms
  // setTimeout fires at once.
  const timeoutMs = positiveInteger(values.timeout, "--timeout", 10_000);
  if (timeoutMs < 1 || timeoutMs > 2 ** 31 - 1)
    throw new UsageError(`--timeout takes milliseconds from 1 to ${2 ** 31 - 1}, got "${values.timeout}"`);
  if (values["update-baseline"] && !values.baseline)
    throw new UsageError("--update-baseline needs --baseline <file> to write");
  const baseline = values.baseline && !values["update-baseline"] ? readBaseline(values.baseline) : undefined;
  const shardMatch = values.shard === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(values.shard);
  if (
    values.shard !== undefined &&
    (!shardMatch || Number(shardMatch[1]) < 1 || Number(shardMatch[1]) > Number(shardMatch[2]))
  )
    throw new UsageError(`--shard takes <i>/<n> with 1 <= i <= n, got "${values.shard}"`);
  const shard = shardMatch ? { index: Number(shardMatch[1]), count: Number(shardMatch[2]) } : undefined;
  const secrets = new Secrets(credentials);
  return { api, baseUrl, credentials, checks, identity, rateLimit, seed, baseline, shard, secrets, timeoutMs };
}
