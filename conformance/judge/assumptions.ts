// A broken `x-assumption` (a constraint we chose where the seeds are silent) is not the provider breaking its word: a
// warning, or under --strict a failure. Every check that reads an assumption reports it here, so --strict means the
// same everywhere.

/** What a check notes beside its verdict: a warning (a broken x-assumption) or an observation. */
export interface CheckNote {
  kind: "warning" | "observation";
  message: string;
  /** The `x-assumption` text (warnings). */
  assumption?: string;
}

/** How a check reports a broken assumption: --strict, and where warnings and observations go. */
export interface AssumptionJudge {
  /** --strict: breaking an `x-assumption` fails instead of warning. */
  strict?: boolean;
  /**
   * Receives the warnings (x-assumption) and observations (accepted invalid data the provider never promised to
   * refuse).
   */
  note?: (note: CheckNote) => void;
}

/** A broken `x-assumption`: a warning with the assumption's reason (the check passes), or under --strict a failure. */
export function assumptionBroken(judge: AssumptionJudge, message: string, assumption: string): string {
  if (judge.strict) return `${message} (x-assumption, failing under --strict: ${assumption})`;
  judge.note?.({ kind: "warning", message, assumption });
  return "";
}
