// What a passive run (recorded traffic: --har, --from-json, the proxy) adds to the report: where the traffic came
// from, what was judged, the exchanges that could not be judged (gaps, never dropped), and the exchanges themselves,
// redacted, so that a later run can judge them again (--from-json).

/** How the passive judge words the reason of an exchange at another address; the reports count those per address. */
export const ELSEWHERE = "another host or address than ";

/** An entry of the recording that was not judged against an operation, and why. */
export interface PassiveGap {
  /** The entry's position in the recording (1-based), when it has one. */
  entry?: number;
  method: string;
  url: string;
  status?: number;
  reason: string;
}

export interface PassiveSummary {
  /** Where the exchanges came from: `HAR file <name> (Chromium 131)`, `JSON report <name>`, `proxy`. */
  source: string;
  /** Every entry of the recording, judged or not. */
  entries: number;
  /** Of those, the exchanges matched to an operation and judged. */
  judged: number;
  gaps: PassiveGap[];
  /** Entries judged with a caveat (a body recorded in base64, compressed or binary), `reason` saying which. */
  notes?: PassiveGap[];
}

/** One recorded exchange as the report keeps it (every secret replaced by its placeholder). */
export interface RecordedExchange {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    setCookies?: string[];
    body: string;
    /** The body was cut at this many bytes when it was recorded. */
    tooLarge?: number;
  };
  error?: string;
  durationMs: number;
  /** When the response arrived (ISO 8601). */
  receivedAt: string;
  /**
   * What the active run that sent it expected (`unauthenticated`: made-up credentials; `any`: a replay, a flow step).
   */
  expectation?: "valid" | "invalid" | "unauthenticated" | "any";
  /**
   * The plan item of the active run that sent it (its budget's `notReached` items are numbered the same); absent for
   * the reachability check, the cleanup, traffic recorded elsewhere and reports of older versions.
   */
  itemId?: number;
}
