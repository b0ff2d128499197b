// One request the runner sent and what came back: made by the transport (send/transport.ts), judged by the judge,
// kept by the ledger and replayed from a JSON report (--from-json).
import type { PreparedRequest } from "../apis.js";

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text (the first `maxBodyBytes` when it is larger). */
  text: string;
  /** The body was larger than this many bytes, the most the runner reads: `text` is its beginning. */
  tooLarge?: number;
  /** The parsed JSON body, or `undefined` when the body is not JSON. */
  json: unknown;
  isJson: boolean;
  /** Each Set-Cookie header on its own (the headers record joins them). */
  setCookies: string[];
}

export interface Exchange {
  request: PreparedRequest;
  /** Not sent: the run was interrupted while the request waited for the rate limit, or the request budget is spent. */
  interrupted?: boolean;
  /** Not sent because the request budget (--max-requests) is spent: what needed it is not reached. */
  budgetSpent?: boolean;
  response?: RecordedResponse;
  /** A network error instead of a response. */
  error?: string;
  durationMs: number;
  /** When the response arrived (ms since the epoch). */
  receivedAt: number;
  /** The plan item that sent it (model/plan.ts PlanItem.id); none for the reachability check and the cleanup. */
  itemId?: number;
}
