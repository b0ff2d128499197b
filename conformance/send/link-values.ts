// Values from the deployment: before an operation's valid requests, the runner calls each operation whose Link
// Objects feed it (listCategories for createProduct, listChannels for listChannelItems) once, evaluates the links'
// runtime expressions on the answer and puts the values into every valid case. One LinkValues per run keeps the
// answers.
import { exampleCases } from "../plan/cases.js";
import type { OperationModel, RequestCase } from "../model/cases.js";
import { evaluate, type ContractLink, type LinkContext } from "../contract/links.js";
import type { RunContext } from "../context.js";
import type { CaseSender } from "./sender.js";
import type { Exchange } from "../model/exchange.js";

export interface LinkedValues {
  /** The case with the deployment's values in it (the case itself when no link feeds the operation). */
  apply(requestCase: RequestCase): RequestCase;
  /** Why no link gave a value, when links feed the operation but none could. */
  missing?: string;
  /** The links that gave the values. */
  used: ContractLink[];
}

const given = (value: unknown) => value !== undefined && value !== null;

/** The values of one link on one exchange, or undefined when an expression finds nothing. */
function valuesOf(
  link: ContractLink,
  context: LinkContext,
): { parameters: ContractLink["parameters"]; body?: unknown } | undefined {
  const parameters = link.parameters.map((p) => ({ ...p, value: evaluate(p.value, context) }));
  if (!parameters.every((p) => given(p.value))) return undefined;
  if (link.requestBody === undefined) return { parameters };
  const body = evaluate(link.requestBody, context);
  const complete =
    body !== null && typeof body === "object" && !Array.isArray(body) ? Object.values(body).every(given) : given(body);
  return complete ? { parameters, body } : undefined;
}

function contextOf(requestCase: RequestCase, exchange: Exchange): LinkContext | undefined {
  if (!exchange.response) return undefined;
  const { request, response } = exchange;
  return {
    request: {
      method: request.method,
      url: request.url,
      path: requestCase.path,
      query: requestCase.query,
      headers: requestCase.headers,
      body: requestCase.body,
    },
    response: { status: response.status, headers: response.headers, body: response.json },
  };
}

/** Puts one link's values into a case: parameters where the case has them (or as `in` says), body properties merged. */
function put(
  requestCase: RequestCase,
  values: { parameters: ContractLink["parameters"]; body?: unknown },
): RequestCase {
  const copy = structuredClone(requestCase);
  for (const parameter of values.parameters) {
    const where =
      parameter.in ?? (parameter.name in copy.path ? "path" : parameter.name in copy.query ? "query" : "header");
    const bag = where === "path" ? copy.path : where === "query" ? copy.query : copy.headers;
    bag[parameter.name] = parameter.value;
  }
  if (values.body !== undefined) {
    const merge =
      values.body !== null &&
      typeof values.body === "object" &&
      !Array.isArray(values.body) &&
      copy.body !== null &&
      typeof copy.body === "object" &&
      !Array.isArray(copy.body);
    copy.body = merge
      ? { ...(copy.body as Record<string, unknown>), ...(values.body as Record<string, unknown>) }
      : values.body;
  }
  return copy;
}

/** A source operation's answer: the case it was sent as and the exchange. */
interface Source {
  requestCase: RequestCase;
  exchange: Exchange;
}

/**
 * The values the Link Objects give operations, one per run: each source operation (a read without path parameters,
 * listCategories for createProduct) is called once, by the first item that needs it, and its answer is kept.
 */
/** What judges a source's exchange as a case the provider must accept: the run's judge, handed in by the caller. */
export interface ValidCaseJudge {
  exchange(model: OperationModel, exchange: Exchange, expectation: "valid", label: string): unknown;
}

export class LinkValues {
  private readonly sources = new Map<string, Promise<Source | undefined>>();

  constructor(private readonly context: RunContext) {}

  /**
   * The values the links give an operation, read from operations the run may call on its own (reads without path
   * parameters). The first link, in document order, whose every expression finds a value wins. A source not called
   * yet is called with `send` and judged like any valid case.
   */
  async valuesFor(operationId: string, send: CaseSender, judge: ValidCaseJudge): Promise<LinkedValues> {
    const { context } = this;
    const feeding = context.links.filter(
      (link) =>
        link.to === operationId &&
        context.isRead(link.from) &&
        !context.model(link.from).parameters.some((p) => p.in === "path"),
    );
    if (feeding.length === 0) return { apply: (c) => c, used: [] };
    const outcomes: string[] = [];
    for (const link of feeding) {
      const source = await this.source(link.from, send, judge);
      const linkContext = source && contextOf(source.requestCase, source.exchange);
      const values = linkContext && valuesOf(link, linkContext);
      if (values) return { apply: (c) => put(c, values), used: [link] };
      outcomes.push(`${link.name} from ${link.from}: ${whyNone(source)}`);
    }
    return {
      apply: (c) => c,
      used: [],
      missing: `no Link Object gave ${operationId} a value from the deployment (${outcomes.join("; ")})`,
    };
  }

  /** Calls the source operation of the links once per run (its first example) and remembers the answer. */
  private source(operationId: string, send: CaseSender, judge: ValidCaseJudge): Promise<Source | undefined> {
    let pending = this.sources.get(operationId);
    if (!pending) {
      pending = (async () => {
        const model = this.context.model(operationId);
        const base = exampleCases(model, this.context.profile, this.context.options.credentials)[0];
        if (!base) return undefined;
        const requestCase = { ...base, label: `read values for later requests (${operationId}'s links)` };
        const exchange = await send.send(model, requestCase);
        judge.exchange(model, exchange, "valid", requestCase.label);
        return { requestCase, exchange };
      })();
      this.sources.set(operationId, pending);
    }
    return pending;
  }
}

/** Why a source's answer gave a link no value. */
function whyNone(source: Source | undefined): string {
  if (!source) return "no example to send";
  const { response, error } = source.exchange;
  if (response) return `nothing at its expressions in the answer (status ${response.status})`;
  return error ?? "no response";
}
