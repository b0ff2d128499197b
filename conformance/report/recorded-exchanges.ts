// An exchange as a report keeps it (RecordedExchange): every part redacted, and what the active run expected of it,
// so that `--from-json` judges its probes again as what they were (made-up credentials must be refused, a replay or
// a deliberately wrong flow request is judged only by its response's shape).
import type { Expectation } from "../model/cases.js";
import { Secrets } from "./secrets.js";
import { TrafficSecrets } from "./traffic-secrets.js";
import type { Exchange } from "../model/exchange.js";
import type { RecordedExchange } from "../model/recorded-traffic.js";

/** `redact` replaces every secret; `expectation` is what the active run that sent it expected, if one did. */
export function recordedExchange(
  exchange: Exchange,
  redact: (text: string) => string,
  expectation?: Expectation,
): RecordedExchange {
  const request = exchange.request;
  const headers = (record: Record<string, string>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, redact(v)]));
  const response = exchange.response;
  return {
    request: {
      method: request.method,
      url: redact(request.url),
      headers: headers(request.headers),
      ...(request.body !== undefined ? { body: redact(request.body) } : {}),
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
    ...(expectation ? { expectation } : {}),
    ...(exchange.itemId !== undefined ? { itemId: exchange.itemId } : {}),
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
  expectations: WeakMap<Exchange, Expectation>,
): RecordedExchange[] {
  const found = new Secrets({});
  const traffic = new TrafficSecrets(found);
  for (const exchange of exchanges) traffic.register(exchange);
  // The traffic's own secrets first, in their shapes (the JSON judged again still validates), then the run's.
  const redact = (text: string) => redactSent(found.redact(text));
  // An exchange the run sent without judging it as a case (a flow step, a replay) is expected nothing in particular.
  return exchanges.map((exchange) => recordedExchange(exchange, redact, expectations.get(exchange) ?? "any"));
}
