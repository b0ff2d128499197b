// An exchange as a report keeps it (RecordedExchange): every part redacted, and an active run's probes marked, so
// that `--from-json` judges them again as what they were (made-up credentials must be refused).
import { WRONG_SECRET } from "../apis.js";
import { Secrets } from "../secrets.js";
import { TrafficSecrets } from "./traffic-secrets.js";
import type { Exchange } from "../transport.js";
import type { RecordedExchange } from "./types.js";

function credentialsOf(exchange: Exchange, readOnlyKey: string | undefined): "wrong" | "read-only" | undefined {
  const request = exchange.request;
  const values = Object.values(request.headers);
  if (request.wrongKey !== undefined || values.some((value) => value.includes(WRONG_SECRET))) return "wrong";
  if (readOnlyKey !== undefined && values.includes(readOnlyKey)) return "read-only";
  return undefined;
}

/** `redact` replaces every secret; `readOnlyKey` is the narrower key of catalog's scope_enforcement, if any. */
export function recordedExchange(
  exchange: Exchange,
  redact: (text: string) => string,
  readOnlyKey?: string,
): RecordedExchange {
  const request = exchange.request;
  const headers = (record: Record<string, string>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, redact(v)]));
  const response = exchange.response;
  const credentials = credentialsOf(exchange, readOnlyKey);
  return {
    request: {
      method: request.method,
      url: redact(request.url),
      headers: headers(request.headers),
      ...(request.body !== undefined ? { body: redact(request.body) } : {}),
      ...(credentials ? { credentials } : {}),
    },
    ...(response
      ? {
          response: {
            status: response.status,
            headers: headers(response.headers),
            ...(response.setCookies.length ? { setCookies: response.setCookies.map(redact) } : {}),
            body: redact(response.text),
            ...(response.tooLarge !== undefined ? { tooLarge: response.tooLarge } : {}),
          },
        }
      : {}),
    ...(exchange.error !== undefined ? { error: redact(exchange.error) } : {}),
    durationMs: exchange.durationMs,
    receivedAt: new Date(exchange.receivedAt).toISOString(),
  };
}

/**
 * The exchanges of a run as its report keeps them: `redactSent` replaces the run's known secrets, and every secret
 * the traffic itself carries (session cookies, PKCE verifiers, codes, tokens, passwords: TrafficSecrets) is replaced
 * too, so that recording the exchanges shows nothing the rest of the report did not.
 */
export function recordedExchanges(
  exchanges: Exchange[],
  redactSent: (text: string) => string,
  readOnlyKey?: string,
): RecordedExchange[] {
  const found = new Secrets({});
  const traffic = new TrafficSecrets(found);
  for (const exchange of exchanges) traffic.register(exchange);
  const redact = (text: string) => found.redact(redactSent(text));
  return exchanges.map((exchange) => recordedExchange(exchange, redact, readOnlyKey));
}
