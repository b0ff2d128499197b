// Sending: a case of an operation becomes a request (prepared from the case at the operation's address, then
// authenticated, signed and given a nonce by the API's profile), goes out through the transport (the rate limit's
// waits, the request cap) and comes back as an Exchange stamped with the plan item it belongs to. Each exchange is
// handed on as it arrives (the runner gives it to the judge); nothing is judged here.
import type { AuthMode, PreparedRequest } from "../apis.js";
import type { NonceSource } from "../../lib/nonce.js";
import { DEFAULT_NONCE, runNonceSource } from "./nonces.js";
import type { RunContext } from "../context.js";
import { prepare } from "../plan/cases.js";
import { type OperationModel, type RequestCase } from "../model/cases.js";
import { RequestBudget, Transport } from "./transport.js";
import { type Exchange } from "../model/exchange.js";

/** One exchange as it arrives, with what it was sent as. */
export interface Arrival {
  model: OperationModel;
  exchange: Exchange;
  requestCase: RequestCase;
  auth: AuthMode;
  /** A request the contract does not describe (another method on a documented path). */
  probe: boolean;
}

export interface SendOptions {
  auth?: AuthMode;
  /** Changes the prepared request into one the contract does not describe (another method): no observations. */
  probe?: (request: PreparedRequest) => void;
}

/** What a request sent as is was, when it is one of the contract's operations. */
export interface AsIs {
  model: OperationModel;
  label: string;
}

/**
 * Where each operation lives: the URL its path template is filled into. The contract's path under --base-url unless
 * the run follows a discovery document (identity: identity/paths.ts's IdentityEndpoints).
 */
export interface OperationAddresses {
  urlOf(operationId: string): string;
  /** A member of the document the addresses come from (identity: the discovery document), if any. */
  member?(name: string): unknown;
}

/** What an item of the plan sends with: every exchange it makes carries the item's id. */
export interface CaseSender {
  /** Sends one case of an operation and returns the exchange (with the request as sent). */
  send(model: OperationModel, requestCase: RequestCase, options?: SendOptions): Promise<Exchange>;
  /**
   * Sends a request exactly as given: a repeat of one sent before (a replayed nonce, a request sent again), or one a
   * flow builds itself. With `judged`, the request of that operation it is, the judge gets it on arrival like any
   * other; without, it is a request the contract does not describe (a page of the sign-in, the redirect back).
   */
  sendAsIs(request: PreparedRequest, judged?: AsIs): Promise<Exchange>;
  /** The URL of an operation, where `send` sends its cases: for a request a flow builds itself. */
  urlOf(operationId: string): string;
  /** A member of the discovery document the run follows (what the provider advertises); undefined when none. */
  discovered(member: string): unknown;
  /** Interrupted (Ctrl-C), or the request budget is spent: nothing more is sent before the cleanup. */
  readonly aborted: boolean;
  /** A request of this item came back not sent because the request budget is spent: the item was cut short. */
  readonly cutByBudget: boolean;
}

export class Sender {
  readonly transport: Transport;
  /** Pay's nonces, in the run's --nonce mode (seconds by default: never ahead of the shop's own client). */
  readonly nonces: NonceSource;
  private addresses: OperationAddresses;

  constructor(
    private readonly context: RunContext,
    private readonly onArrival: (arrival: Arrival) => void,
    onExchange: (exchange: Exchange) => void,
  ) {
    const { options, declaredRateLimit: declared } = context;
    const baseUrl = options.baseUrl.replace(/\/$/, "");
    this.addresses = { urlOf: (operationId) => `${baseUrl}${context.model(operationId).op.path}` };
    this.nonces = runNonceSource(options.nonce ?? DEFAULT_NONCE);
    const rate = options.rateLimit ?? declared;
    this.transport = new Transport({
      budget: rate ? new RequestBudget(rate.limit, rate.windowSeconds * 1000) : undefined,
      rateLimitHeaders: declared?.headers,
      ...(declared ? { rateLimitWindowMs: declared.windowSeconds * 1000 } : {}),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onExchange,
    });
  }

  /** Interrupted (Ctrl-C), or the request budget is spent: nothing more is sent before the cleanup. */
  get aborted(): boolean {
    return this.context.options.signal.aborted || this.transport.capReached;
  }

  /** From now on every operation is sent to the URL `addresses` gives it (set once, before the plan runs). */
  follow(addresses: OperationAddresses): void {
    this.addresses = addresses;
  }

  /** The sender of one plan item: its exchanges carry the item's id (none for the reachability check, the cleanup). */
  forItem(itemId: number | undefined): CaseSender {
    const aborted = () => this.aborted;
    let cutByBudget = false;
    const noting = (exchange: Exchange) => {
      if (exchange.budgetSpent) cutByBudget = true;
      return exchange;
    };
    return {
      send: (model, requestCase, options) => this.send(model, requestCase, options, itemId).then(noting),
      sendAsIs: (request, judged) => this.sendAsIs(request, judged, itemId).then(noting),
      urlOf: (operationId) => this.addresses.urlOf(operationId),
      discovered: (member) => this.addresses.member?.(member),
      get aborted() {
        return aborted();
      },
      get cutByBudget() {
        return cutByBudget;
      },
    };
  }

  private async sendAsIs(request: PreparedRequest, judged: AsIs | undefined, itemId?: number): Promise<Exchange> {
    const exchange = stamped(await this.transport.send(request), itemId);
    if (judged && !exchange.interrupted) {
      const requestCase: RequestCase = { origin: "sequence", label: judged.label, path: {}, query: {}, headers: {} };
      this.onArrival({ model: judged.model, exchange, requestCase, auth: "valid", probe: false });
    }
    return exchange;
  }

  private async send(
    model: OperationModel,
    requestCase: RequestCase,
    options: SendOptions = {},
    itemId?: number,
  ): Promise<Exchange> {
    const auth = options.auth ?? "valid";
    const request = prepare(model, requestCase, this.addresses.urlOf(model.op.operationId));
    options.probe?.(request);
    await this.context.profile.finalize(model.op.operationId, request, auth, {
      credentials: this.context.options.credentials,
      nonces: this.nonces,
      registerSecret: (value, replacement) => this.context.secrets.add(value, replacement),
      secured: this.context.isSecured(model),
    });
    const exchange = stamped(await this.transport.send(request), itemId); // before the judge sees it
    if (!exchange.interrupted)
      this.onArrival({ model, exchange, requestCase, auth, probe: options.probe !== undefined });
    return exchange;
  }
}

/** The exchange, marked as sent by the plan item (none for the reachability check and the cleanup). */
function stamped(exchange: Exchange, itemId: number | undefined): Exchange {
  if (itemId !== undefined) exchange.itemId = itemId;
  return exchange;
}
