// The ledger of a run, append-only: the verdicts (every check's result per operation, the failures with their
// reproductions, redacted, with a curl command that names environment variables, the broken assumptions), the
// decisions (checks and operations skipped or unable to run), the observations, the coverage and every exchange with
// what the run expected of it. A reducer over the run's events (model/events.ts), which only the judge records; the
// report is built from it alone (report.ts).
import type { Expectation } from "../model/cases.js";
import { DEFAULT_NONCE, shellNonce } from "../send/nonces.js";
import { ObservationLog } from "../judge/observations.js";
import type { Decision, Evidence, Finding, PageEvidence, Verdict } from "../model/finding.js";
import type { EventSink, RunEvent } from "../model/events.js";
import type { RunOptions } from "../context.js";
import type { Exchange } from "../model/exchange.js";
import { CoverageLog } from "./coverage.js";
import { curlCommand, type Secrets } from "./secrets.js";
import type { CheckName } from "../model/check-registry.js";
import { causeOf } from "./causes.js";

export interface FailureRecord {
  check: string;
  operationId: string;
  message: string;
  /** What the failing case was: `example ...`, `random valid data`, the mutation, `no credentials`, a sequence step. */
  case: string;
  shrunk: boolean;
  occurrences: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
  curl: string;
  /** Where in the request the case breaks the contract (invalid cases), for the baseline key. */
  where?: string;
  /**
   * Found by random data of this run's seed, not by an example, a boundary or a fixed step: another seed may not show
   * it.
   */
  seeded?: boolean;
  /** Listed in the --baseline file, or in the --overlay's `x-known-behaviours`: reported, not failing the run. */
  known?: boolean;
  /** Where it is listed as known, when that is the overlay (else the baseline). */
  knownFrom?: "overlay";
  /** Its cause (causes.ts), the baseline's key: check | where | the place it breaks, or the normalized reason. */
  key?: string;
  /** Where the response breaks its contract, when the check located it: its schema location and keyword. */
  place?: Pick<Evidence, "location" | "keyword">;
}

/** A broken `x-assumption`: reported with the assumption's reason, never a failure unless --strict. */
export interface WarningRecord {
  check: string;
  operationId: string;
  message: string;
  assumption: string;
  case: string;
  occurrences: number;
}

/** A page a check counted as a refusal (Verdict.pages), redacted: the evidence the OpenID Foundation suite keeps. */
export interface RefusalPageRecord {
  check: string;
  operationId: string;
  case: string;
  url: string;
  status?: number;
  text: string;
  /** --browser: a PNG screenshot, base64; left out when the page showed a secret (a picture cannot be redacted). */
  screenshot?: string;
}

export interface Tally {
  passed: number;
  failed: number;
}

export class Ledger implements EventSink {
  /** check → operationId → tally */
  readonly tallies = new Map<string, Map<string, Tally>>();
  readonly failures = new Map<string, FailureRecord>();
  /** check → why it applies but could not run (a missing credential, a failed prerequisite): fails the run. */
  readonly unrunChecks = new Map<string, string>();
  /** `check operationId assumption` → the warning */
  readonly warnings = new Map<string, WarningRecord>();
  /** The pages checks counted as refusals, in the order they were judged. */
  readonly refusalPages: RefusalPageRecord[] = [];
  /** check → why it did not run at all (it does not apply, or the run was not asked to write) */
  readonly skippedChecks = new Map<string, string>();
  /** operationId → why it did not run, or which of its cases were not sent */
  readonly skippedOperations = new Map<string, string>();
  /** Extra fields and headers, undocumented statuses, accepted invalid data the provider never promised to refuse. */
  readonly observations = new ObservationLog();
  /** What each operation was sent and what judged it (the report's coverage section). */
  readonly coverage = new CoverageLog();
  /** Every exchange the transport completed, in order: the JSON report records them (--from-json judges them again). */
  readonly exchanges: Exchange[] = [];
  /** operationId → the kinds of case not sent (--max-writes, no value from a link), in order, and why. */
  private readonly heldBack = new Map<string, Array<{ cases: string; reason: string }>>();
  /** What the run expected of each exchange it judged (valid, invalid, unauthenticated, any), for its JSON report. */
  readonly expectations = new WeakMap<Exchange, Expectation>();

  constructor(
    private readonly options: Pick<RunOptions, "checks" | "onProgress" | "baseUrl" | "nonce">,
    private readonly secrets: Secrets,
  ) {}

  /** Takes one event of the run into the ledger. */
  record(event: RunEvent): void {
    switch (event.type) {
      case "exchanged":
        return void this.exchanges.push(event.exchange);
      case "sent":
        return this.coverage.sent(event.operationId, event.kind, event.exchange);
      case "observed":
        return this.observations.observe(event.model, event.exchange);
      case "expected":
        return this.expected(event.exchange, event.expectation);
      case "finding":
        return this.found(event.finding);
    }
  }

  private found(finding: Finding): void {
    if (!("about" in finding)) this.add(finding);
    else if (finding.about === "observation")
      this.observations.noted(
        finding.deployment ? "deployment" : "accepted-invalid",
        finding.operationId,
        this.secrets.redact(finding.message),
        {
          ...(finding.known ? { known: "overlay" as const } : {}),
          ...(finding.advertised
            ? { advertised: finding.advertised.map((at) => ({ ...at, path: this.secrets.redact(at.path) })) }
            : {}),
        },
      );
    else this.decide(finding);
  }

  /** Adds what a check found. */
  private add(verdict: Verdict): void {
    if (verdict.outcome === "warn")
      this.warn(verdict.check, verdict.operationId, verdict.message, verdict.assumption ?? "", verdict.case);
    else this.tally(verdict);
    for (const page of verdict.pages ?? []) this.keepPage(verdict, page);
  }

  /** Keeps a refusal's page, its text redacted; a page whose text held a secret keeps no screenshot. */
  private keepPage(verdict: Verdict, page: PageEvidence): void {
    const { url, status, text, screenshot } = page;
    const [redactedUrl, redactedText] = [this.secrets.redact(url), this.secrets.redact(text)];
    const clean = redactedUrl === url && redactedText === text;
    this.refusalPages.push({
      check: verdict.check,
      operationId: verdict.operationId,
      case: this.secrets.redact(verdict.case),
      url: redactedUrl,
      ...(status !== undefined ? { status } : {}),
      text: redactedText,
      ...(screenshot && clean ? { screenshot } : {}),
    });
  }

  /**
   * Adds a check or an operation the run skipped or could not run. The kinds of case of one operation that were not
   * sent (`cases`) add up: each is named once, with its reason unless it is the first one's.
   */
  private decide(decision: Decision): void {
    const { cases } = decision;
    if (decision.about === "operation" && cases !== undefined) this.notSent(decision.name, cases, decision.reason);
    else if (decision.about === "operation") this.skippedOperations.set(decision.name, decision.reason);
    else if (decision.decision === "skipped") this.skippedChecks.set(decision.name, decision.reason);
    else this.cannotRun(decision.name, decision.reason);
  }

  private notSent(operationId: string, cases: string, reason: string): void {
    const held = this.heldBack.get(operationId) ?? [];
    if (held.some((earlier) => earlier.cases === cases)) return;
    held.push({ cases, reason });
    this.heldBack.set(operationId, held);
    // The first reason is said once; a later kind held back for another reason says its own.
    const [first] = held;
    const parts = held.map((h) =>
      h === first || h.reason !== first!.reason ? `${h.cases} not sent: ${h.reason}` : `${h.cases} not sent`,
    );
    this.skippedOperations.set(operationId, parts.join("; "));
  }

  /** What the run expected of an exchange it judged: the first judgment says (a shrink or a step may judge again). */
  private expected(exchange: Exchange, expectation: Expectation): void {
    if (!this.expectations.has(exchange)) this.expectations.set(exchange, expectation);
  }

  /** Records a broken `x-assumption` (once per check, operation and assumption; later ones are counted). */
  private warn(check: CheckName, operationId: string, message: string, assumption: string, caseLabel: string): void {
    const key = `${check} ${operationId} ${assumption}`;
    const existing = this.warnings.get(key);
    if (existing) existing.occurrences += 1;
    else
      this.warnings.set(key, {
        check,
        operationId,
        message: this.secrets.redact(message),
        assumption,
        case: this.secrets.redact(caseLabel),
        occurrences: 1,
      });
  }

  /**
   * A selected check that applies but cannot run: the run fails with this reason (unless the check is excluded). What
   * the spent request budget cut short is not reached, not unable to run: the judge does not record it.
   */
  private cannotRun(check: CheckName, reason: string): void {
    if (!this.options.checks.has(check) || this.unrunChecks.has(check)) return;
    this.unrunChecks.set(check, this.secrets.redact(reason));
  }

  /** Counts one outcome (passed or failed) of a check on an operation. */
  private tally(verdict: Verdict): void {
    const { check, operationId, exchange } = verdict;
    // A failure always says why; a pass carries no message.
    const outcome = verdict.outcome === "fail" ? verdict.message || `${check} failed` : "";
    if (!this.options.checks.has(check) || exchange?.interrupted) return;
    if (verdict.tally !== false) {
      const byOperation = this.tallies.get(check) ?? new Map<string, Tally>();
      this.tallies.set(check, byOperation);
      const tally = byOperation.get(operationId) ?? { passed: 0, failed: 0 };
      byOperation.set(operationId, tally);
      if (outcome) tally.failed += 1;
      else tally.passed += 1;
      this.coverage.judged(operationId, check, exchange, !outcome);
    }
    if (!outcome) return;
    // A located failure is one failure per place (a body broken at `error` and at `data` is two); else one.
    const places: Array<Evidence | undefined> = verdict.evidence?.length ? verdict.evidence : [undefined];
    for (const place of places) this.fail(verdict, place?.message ?? outcome, place);
  }

  /** Records one failure of a check on an operation (at one place), or counts it again. */
  private fail(verdict: Verdict, message: string, place: Evidence | undefined): void {
    const { check, operationId, exchange, case: caseLabel } = verdict;
    const key = [check, operationId, place?.location, place?.keyword].filter(Boolean).join(" ");
    const existing = this.failures.get(key);
    if (existing && !verdict.shrunk) {
      if (verdict.tally !== false) existing.occurrences += 1;
      // A fixed case (an example, a boundary, a step) failing the same way: another seed shows it too.
      if (verdict.tally !== false && !verdict.seeded) delete existing.seeded;
      return;
    }
    const record = this.failureRecord(check, operationId, message, exchange, caseLabel, {
      shrunk: Boolean(verdict.shrunk),
      occurrences: existing?.occurrences ?? 1,
      sentBefore: verdict.sentBefore,
    });
    const where = verdict.where ?? existing?.where;
    if (where) record.where = this.secrets.redact(where);
    if (place) record.place = { location: place.location, keyword: place.keyword };
    // A shrunk case keeps the origin of the case that first failed, and its cause: the progress line numbered it.
    if (existing ? existing.seeded : verdict.seeded) record.seeded = true;
    record.key = existing?.key ?? causeOf(record);
    if (!existing) this.options.onProgress?.({ type: "failure", failure: record });
    this.failures.set(key, record);
  }

  private failureRecord(
    check: string,
    operationId: string,
    message: string,
    exchange: Exchange | undefined,
    caseLabel: string,
    { shrunk, occurrences, sentBefore }: { shrunk: boolean; occurrences: number; sentBefore?: Exchange },
  ): FailureRecord {
    const redact = (text: string) => this.secrets.redact(text);
    const request = exchange?.request ?? { method: "-", url: this.options.baseUrl, headers: {} };
    const record: FailureRecord = {
      check,
      operationId,
      message: redact(message),
      case: redact(caseLabel),
      shrunk,
      occurrences,
      request: {
        method: request.method,
        url: this.secrets.redactSent(request.url),
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, this.secrets.redactSent(v)])),
        ...(request.body !== undefined ? { body: this.secrets.redactSent(request.body) } : {}),
      },
      // A replay is reproduced by sending the same request twice, or the request that used the nonce first and then
      // this one.
      curl: curlCommand(request, this.secrets, {
        ...(sentBefore ? { sentBefore: sentBefore.request } : { times: check === "nonce_replay" ? 2 : 1 }),
        nonce: shellNonce(this.options.nonce ?? DEFAULT_NONCE),
      }),
    };
    if (exchange?.response) {
      record.response = {
        status: exchange.response.status,
        headers: Object.fromEntries(Object.entries(exchange.response.headers).map(([k, v]) => [k, redact(v)])),
        // Cut after redacting: a secret cut in two (a long id_token) would no longer be recognised.
        body: redact(exchange.response.text).slice(0, 4000),
      };
    }
    // A transport or browser error can quote the whole URL, and with it a token the provider issued in this run.
    if (exchange?.error) record.error = redact(exchange.error);
    return record;
  }
}
