// `contracts conform <api> --har <file>` and `--from-json <report>`: judge recorded traffic, send nothing. The
// recording is read into memory only; the reports are those of an active run (console, --json, --junit, --html).
import { readFileSync } from "node:fs";
import { parseApiName, UsageError } from "../../lib/cli.js";
import { type ApiName, isApiName } from "../../lib/contract/index.js";
import { anyApplies, selectChecks } from "../judge/checks.js";
import { readBaseline } from "../report/baseline.js";
import type { ConformConsole } from "../report/console.js";
import type { RunReport } from "../report/report.js";
import { Secrets } from "../report/secrets.js";
import type { Exchange } from "../model/exchange.js";
import { type ConformValues, credentialsFrom } from "../cli-options.js";
import { checkWritable, finishRun } from "../finish-run.js";
import { type HarRecording, readHar } from "./har.js";
import { createPassiveJudge, type PassiveJudge } from "./judge.js";
import type { RecordedExchange } from "../model/recorded-traffic.js";

/** Options of an active run that mean nothing to recorded traffic: named, not silently ignored. */
const ACTIVE_ONLY = [
  "allow-writes",
  "max-examples",
  "seed",
  "operation",
  "shard",
  "concurrency",
  "rate-limit",
] as const;

function readInput(file: string, flag: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag} ${file}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
}

/** The exchanges a previous run's JSON report recorded, as the judge reads them. */
function exchangesOfReport(
  text: string,
  file: string,
  api: ApiName,
): { exchanges: Array<{ exchange: Exchange; expected?: RecordedExchange["expectation"] }>; source: string } {
  let report: Partial<RunReport>;
  try {
    report = JSON.parse(text) as Partial<RunReport>;
  } catch (error) {
    throw new UsageError(`--from-json ${file}: not a JSON report: ${(error as Error).message}`);
  }
  if (typeof report.api === "string" && isApiName(report.api) && report.api !== api)
    throw new UsageError(`--from-json ${file}: the report is of ${report.api}, not ${api}`);
  if (!Array.isArray(report.exchanges))
    throw new UsageError(
      `--from-json ${file}: the report records no exchanges (written before contracts conform recorded them); run it again to record them`,
    );
  const exchanges = report.exchanges.map((recorded) => ({
    exchange: exchangeOf(recorded),
    ...(recorded.expectation ? { expected: recorded.expectation } : {}),
  }));
  return { exchanges, source: `JSON report ${file} (${exchanges.length} exchanges recorded at ${report.baseUrl})` };
}

/** A report's recorded exchange as the judge reads it (the body parsed as the transport would). */
function exchangeOf(recorded: RecordedExchange): Exchange {
  const response = recorded.response;
  let json: unknown;
  let isJson = false;
  try {
    json = JSON.parse(response?.body ?? "");
    isJson = true;
  } catch {
    // not JSON
  }
  return {
    request: {
      method: recorded.request.method,
      url: recorded.request.url,
      headers: recorded.request.headers,
      ...(recorded.request.body !== undefined ? { body: recorded.request.body } : {}),
    },
    ...(response
      ? {
          response: {
            status: response.status,
            headers: response.headers,
            text: response.body,
            json,
            isJson,
            setCookies: response.setCookies ?? [],
            ...(response.tooLarge !== undefined ? { tooLarge: response.tooLarge } : {}),
          },
        }
      : {}),
    ...(recorded.error !== undefined ? { error: recorded.error } : {}),
    durationMs: recorded.durationMs,
    receivedAt: Date.parse(recorded.receivedAt),
    // The item of the run that sent it, kept when judged again; a report of an older version has none.
    ...(typeof recorded.itemId === "number" ? { itemId: recorded.itemId } : {}),
  };
}

function harExchanges(recording: HarRecording): Exchange[] {
  return recording.items.flatMap((item) => ("exchange" in item ? [item.exchange] : []));
}

/** Feeds a HAR file to the judge, entry by entry; gaps and caveats are listed, nothing is dropped. */
function judgeHar(judge: PassiveJudge, recording: HarRecording): void {
  for (const item of recording.items) {
    if ("gap" in item) judge.gap(item.gap);
    else {
      if (item.note)
        judge.note({
          entry: item.entry,
          method: item.exchange.request.method,
          url: item.exchange.request.url,
          reason: item.note,
        });
      judge.judge(item.exchange, item.entry);
    }
  }
}

export function runPassiveCommand(
  values: ConformValues,
  positionals: string[],
  env: NodeJS.ProcessEnv,
  io: ConformConsole,
): number {
  if (positionals.length !== 1)
    throw new UsageError("expected exactly one API: contracts conform <identity|links|catalog|pay> --har <file>");
  const api = parseApiName(positionals[0]!);
  if (values.har && values["from-json"]) throw new UsageError("choose one of --har and --from-json");
  for (const flag of ACTIVE_ONLY)
    if (values[flag] !== undefined && values[flag] !== false)
      throw new UsageError(
        `--${flag} shapes the requests an active run sends; with --har or --from-json nothing is sent`,
      );
  const baseUrl = values["base-url"] ?? env.CONFORM_BASE_URL;
  if (baseUrl !== undefined && !URL.canParse(baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
  for (const flag of ["json", "junit", "html"] as const) checkWritable(values[flag], `--${flag}`);
  const checks = selectChecks(values.check, values["exclude-check"]);
  if (!anyApplies(checks, api)) throw new UsageError(`none of the selected checks applies to ${api}`);
  const baseline = values.baseline && !values["update-baseline"] ? readBaseline(values.baseline) : undefined;
  const credentials = credentialsFrom(values, env);
  const secrets = new Secrets(credentials);
  const file = (values.har ?? values["from-json"])!;
  const text = readInput(file, values.har ? "--har" : "--from-json");
  const fromJson = values.har ? undefined : exchangesOfReport(text, file, api);
  const har = values.har ? readHar(text, file) : undefined;
  const source = fromJson?.source ?? `HAR file ${file} (${har!.creator})`;
  const judge = createPassiveJudge(api, {
    ...(baseUrl ? { baseUrl } : {}),
    source,
    checks,
    strict: values.strict,
    secrets,
    credentials,
  });
  io.err(`conform ${api}: judging the recorded traffic of ${secrets.redact(source)}; nothing is sent\n`);
  // The whole recording is at hand: the credentials the provider accepted anywhere in it are learnt first.
  for (const exchange of fromJson ? fromJson.exchanges.map((e) => e.exchange) : harExchanges(har!))
    judge.learn(exchange);
  if (fromJson)
    fromJson.exchanges.forEach(({ exchange, expected }, index) => judge.judge(exchange, index + 1, expected));
  else judgeHar(judge, har!);
  return finishRun(api, judge.report(), values, baseline, judge.secrets, io);
}
