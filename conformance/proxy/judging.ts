// The proxy and the passive judge put together: every exchange that passes the proxy (forward.ts) goes, once its
// response has gone, to the judge of conformance/passive/, and each failure it finds becomes one redacted line.
// `contracts proxy` (cli.ts) runs it until a signal; tests run it in their own process.
import type { ApiName } from "../../lib/contract/index.js";
import { createPassiveJudge, type PassiveJudge } from "../passive/judge.js";
import { TrafficSecrets } from "../report/traffic-secrets.js";
import type { RunReport } from "../report/report.js";
import type { Credentials } from "../apis.js";
import { Secrets } from "../report/secrets.js";
import { startRecordingProxy } from "./forward.js";
import type { ProxiedExchange } from "./recording.js";
import type { CheckName } from "../model/check-registry.js";

export interface JudgingProxyOptions {
  api: ApiName;
  target: URL;
  host: string;
  port: number;
  maxBodyBytes: number;
  checks?: ReadonlySet<CheckName>;
  strict?: boolean;
  /** The API's credentials (from the environment): only requests carrying them must be accepted; never printed. */
  credentials?: Credentials;
  /** Each failure, and each exchange that cannot be judged, as one line (secrets replaced). */
  onLine(line: string): void;
}

export interface JudgingProxy {
  url: string;
  judge: PassiveJudge;
  /** Exchanges the judge failed on (its own error): listed as gaps, and the run must not pass. */
  readonly judgeErrors: number;
  /** Stops the proxy once the exchanges in flight have passed and been judged; the report of all of them. */
  stop(graceMs?: number): Promise<RunReport>;
}

export async function startJudgingProxy(options: JudgingProxyOptions): Promise<JudgingProxy> {
  const judge = createPassiveJudge(options.api, {
    baseUrl: options.target.href,
    source: `contracts proxy in front of ${options.target.origin}`,
    ...(options.checks ? { checks: options.checks } : {}),
    ...(options.strict ? { strict: true } : {}),
    ...(options.credentials ? { credentials: options.credentials, secrets: new Secrets(options.credentials) } : {}),
    onFailure: (failure) =>
      options.onLine(`  ✗ ${failure.check} on ${failure.operationId}: ${oneLine(failure.message)}`),
  });
  // The secrets of exchanges that cannot be judged (the judge learns those of the others itself).
  const unjudged = new TrafficSecrets(judge.secrets);
  const state = { judgeErrors: 0 };
  const proxy = await startRecordingProxy({
    target: options.target,
    host: options.host,
    port: options.port,
    maxBodyBytes: options.maxBodyBytes,
    onExchange: (exchange) => judgeExchange(judge, unjudged, exchange, options, state),
  });
  return {
    url: proxy.url,
    judge,
    get judgeErrors() {
      return state.judgeErrors;
    },
    async stop(graceMs) {
      await proxy.stop(graceMs);
      return judge.report();
    },
  };
}

/** A failure message on the one line it is printed on. */
function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, " ");
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * One exchange that passed: judged when it is complete; listed as a gap, with its reason, when it is not (no
 * response, cut short, a request body too large to judge, a body that does not decode). None is dropped.
 */
function judgeExchange(
  judge: PassiveJudge,
  unjudged: TrafficSecrets,
  exchange: ProxiedExchange,
  options: JudgingProxyOptions,
  state: { judgeErrors: number },
): void {
  const notJudged =
    exchange.error !== undefined
      ? exchange.response
        ? `cut short: ${exchange.error}`
        : `no response: ${exchange.error} (the proxy answered 502)`
      : exchange.requestTooLarge !== undefined
        ? `the request body is larger than --max-body ${options.maxBodyBytes} bytes, so it cannot be judged`
        : exchange.unreadable;
  if (notJudged === undefined) {
    try {
      judge.judge(exchange);
      return;
    } catch (error) {
      // Fail closed: an exchange the judge could not judge is listed, and the run does not pass.
      state.judgeErrors += 1;
      listUnjudged(judge, unjudged, exchange, `could not be judged: ${(error as Error).message}`, options);
      return;
    }
  }
  listUnjudged(judge, unjudged, exchange, notJudged, options);
}

/** An exchange listed as a gap with its reason, and printed as one line. */
function listUnjudged(
  judge: PassiveJudge,
  unjudged: TrafficSecrets,
  exchange: ProxiedExchange,
  notJudged: string,
  options: JudgingProxyOptions,
): void {
  // Its secrets are learnt first: the URL of a gap is shown, and may carry a code or a token.
  try {
    unjudged.register(exchange);
  } catch {
    // a credential that does not decode: the placeholders of the others still apply
  }
  const method = exchange.request.method;
  const status = exchange.response ? { status: exchange.response.status } : {};
  judge.gap({ method, url: exchange.request.url, reason: notJudged, ...status });
  options.onLine(`  ! ${method} ${judge.redact(exchange.request.url)} not judged: ${judge.redact(notJudged)}`);
}
