// Values from the deployment: before an operation's valid requests, the runner calls each operation whose Link
// Objects feed it (listCategories for createProduct, listChannels for listChannelItems) once, evaluates the links'
// runtime expressions on the answer and puts the values into every valid case.
import { exampleCases, type RequestCase } from "../plan/cases.js";
import { evaluate, type ContractLink, type LinkContext } from "../contract/links.js";
import type { RunContext } from "../context.js";
import type { Judge } from "../judge/judge.js";
import type { CaseSender } from "./sender.js";
import type { Exchange } from "./transport.js";

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

type Source = Promise<{ requestCase: RequestCase; exchange: Exchange } | undefined>;

/** Per run (its context), an operation called once for the values its links give → its exchange. */
const sources = new WeakMap<RunContext, Map<string, Source>>();

/** Calls the source operation of the links once per run (its first example) and remembers the answer. */
function sourceExchange(context: RunContext, send: CaseSender, judge: Judge, operationId: string): Source {
  const called = sources.get(context) ?? new Map<string, Source>();
  sources.set(context, called);
  let pending = called.get(operationId);
  if (!pending) {
    pending = (async () => {
      const model = context.model(operationId);
      const base = exampleCases(model, context.profile, context.options.credentials)[0];
      if (!base) return undefined;
      const requestCase = { ...base, label: `read values for later requests (${operationId}'s links)` };
      const exchange = await send.send(model, requestCase);
      judge.exchange(model, exchange, "valid", requestCase.label);
      return { requestCase, exchange };
    })();
    called.set(operationId, pending);
  }
  return pending;
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

/**
 * The values the links give an operation, read from operations the run may call on its own (reads without path
 * parameters). The first link, in document order, whose every expression finds a value wins.
 */
export async function linkedValues(
  context: RunContext,
  send: CaseSender,
  judge: Judge,
  operationId: string,
): Promise<LinkedValues> {
  const feeding = context.links.filter(
    (link) =>
      link.to === operationId &&
      context.isRead(link.from) &&
      !context.model(link.from).parameters.some((p) => p.in === "path"),
  );
  if (feeding.length === 0) return { apply: (c) => c, used: [] };
  const outcomes: string[] = [];
  for (const link of feeding) {
    const source = await sourceExchange(context, send, judge, link.from);
    const found = source && contextOf(source.requestCase, source.exchange);
    const values = found && valuesOf(link, found);
    if (values) return { apply: (c) => put(c, values), used: [link] };
    outcomes.push(
      `${link.name} from ${link.from}: ${!source ? "no example to send" : source.exchange.response ? `nothing at its expressions in the answer (status ${source.exchange.response.status})` : (source.exchange.error ?? "no response")}`,
    );
  }
  return {
    apply: (c) => c,
    used: [],
    missing: `no Link Object gave ${operationId} a value from the deployment (${outcomes.join("; ")})`,
  };
}
