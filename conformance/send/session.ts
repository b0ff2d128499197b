// TRANSITIONAL: the old bag of a run, now only a view over the run's parts (runner.ts startRun: context.ts,
// send/sender.ts, judge/judge.ts, report/ledger.ts, plan/write-budget.ts) that sends as one plan item, with the names
// its callers (the steps, the identity run) still use. Each caller is moving to take only the parts it needs; then
// this file goes.
import type { AuthMode, PreparedRequest } from "../apis.js";
import type { RunContext, RunOptions } from "../context.js";
import type { Judge } from "../judge/judge.js";
import type { OperationModel, RequestCase } from "../plan/cases.js";
import type { WriteBudget } from "../plan/write-budget.js";
import type { Ledger } from "../report/ledger.js";
import type { RunParts } from "../runner.js";
import type { Exchange } from "./transport.js";
import type { CaseSender, Sender } from "./sender.js";

export class Session {
  readonly context: RunContext;
  readonly ledger: Ledger;
  readonly judge: Judge;
  readonly sender: Sender;
  readonly writes: WriteBudget;
  readonly options: RunOptions;
  /** What this view sends with: its exchanges carry the plan item's id given to the constructor. */
  readonly caseSender: CaseSender;

  constructor(parts: RunParts, itemId?: number) {
    ({
      context: this.context,
      ledger: this.ledger,
      judge: this.judge,
      sender: this.sender,
      writes: this.writes,
    } = parts);
    this.options = parts.context.options;
    this.caseSender = parts.sender.forItem(itemId);
  }

  get profile() {
    return this.context.profile;
  }
  get secrets() {
    return this.context.secrets;
  }
  get transport() {
    return this.sender.transport;
  }
  get observations() {
    return this.ledger.observations;
  }
  get coverage() {
    return this.ledger.coverage;
  }
  get nonces() {
    return this.sender.nonces;
  }
  get skippedChecks() {
    return this.ledger.skippedChecks;
  }
  get skippedOperations() {
    return this.ledger.skippedOperations;
  }
  get rateLimited() {
    return this.context.rateLimited;
  }
  get declaredRateLimit() {
    return this.context.declaredRateLimit;
  }
  get maxWrites() {
    return this.writes.max;
  }
  get writesLeft() {
    return this.writes.left;
  }
  set writesLeft(left: number) {
    this.writes.left = left;
  }
  get links() {
    return this.context.links;
  }
  get resources() {
    return this.context.resources;
  }
  get acceptedUpdates() {
    return this.judge.acceptedUpdates;
  }
  get exchanges() {
    return this.ledger.exchanges;
  }
  get expectations() {
    return this.ledger.expectations;
  }
  ownsPath(path: string): boolean {
    return this.context.ownsPath(path);
  }
  owns(operationId: string): boolean {
    return this.context.owns(operationId);
  }
  isRead(operationId: string): boolean {
    return this.context.isRead(operationId);
  }
  model(operationId: string): OperationModel {
    return this.context.model(operationId);
  }
  isSecured(model: OperationModel): boolean {
    return this.context.isSecured(model);
  }
  get aborted(): boolean {
    return this.sender.aborted;
  }
  keepWritesForSequences(kinds: Parameters<WriteBudget["keepForSequences"]>[0]): void {
    this.writes.keepForSequences(kinds, this.options.api === "pay" && this.options.checks.has("nonce_replay"));
  }
  sequenceMayCreate(kind: Parameters<WriteBudget["sequenceMayCreate"]>[0]): boolean {
    return this.writes.sequenceMayCreate(kind);
  }
  creationMayBeReplayed(kind: Parameters<WriteBudget["creationMayBeReplayed"]>[0]): boolean {
    return this.writes.creationMayBeReplayed(kind);
  }
  send(
    model: OperationModel,
    requestCase: RequestCase,
    auth: AuthMode = "valid",
    probe?: (request: PreparedRequest) => void,
  ): Promise<Exchange> {
    return this.caseSender.send(model, requestCase, { auth, ...(probe ? { probe } : {}) });
  }
}
