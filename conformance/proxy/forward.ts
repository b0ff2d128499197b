// The recording reverse proxy of `contracts proxy`: every request goes to the target as it came (method, path,
// query, end-to-end headers, body bytes), every response goes back as it came, both streamed; a copy of at most
// --max-body bytes of each body is taken on the way. Only once the response has been passed on is the exchange
// handed to `onExchange`, so that judging never delays, changes or stops traffic.
import {
  Agent as HttpAgent,
  createServer,
  type IncomingMessage,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { endToEndHeaders, withHost } from "./headers.js";
import { BodyTap, type ExchangeParts, type ProxiedExchange, recordExchange } from "./recording.js";

export interface ProxyOptions {
  /** Where requests go: an http(s) URL; a path in it is put in front of every request's path. */
  target: URL;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The most of each body kept for judging. */
  maxBodyBytes: number;
  /** Gets every exchange once its response has been passed on (or has failed); must not throw. */
  onExchange(exchange: ProxiedExchange): void;
}

export interface RunningProxy {
  url: string;
  /** Stops accepting, lets exchanges in flight finish (at most `graceMs`), then closes every connection. */
  stop(graceMs?: number): Promise<void>;
}

/** A problem the user can fix (a port in use, an address that is not this machine's), reported in one line. */
export class ProxyStartError extends Error {}

/** The path to request at the target: the target's own path, then the request's (origin-form or absolute-form). */
function targetPath(target: URL, requestTarget: string): string | undefined {
  let path = requestTarget;
  if (!path.startsWith("/")) {
    // RFC 9112 §3.2.2: a server accepts the absolute form too; "*" (OPTIONS *) has no path to put a base in front of.
    if (!URL.canParse(path)) return undefined;
    const url = new URL(path);
    path = `${url.pathname}${url.search}`;
  }
  return `${target.pathname.replace(/\/$/, "")}${path}`;
}

/** What one exchange needs to reach the target: the target, how to send there, and where the record goes. */
interface Route {
  target: URL;
  send: typeof httpRequest;
  agent: HttpAgent;
  options: ProxyOptions;
}

/** One exchange from the request's arrival to the moment its record has gone to the judge. */
function forward(route: Route, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { target, options } = route;
  return new Promise((settle) => {
    const startedAt = Date.now();
    const path = targetPath(target, req.url ?? "/");
    const headers = withHost(endToEndHeaders(req.rawHeaders), target.host);
    const requestBody = new BodyTap(options.maxBodyBytes);
    const responseBody = new BodyTap(options.maxBodyBytes);
    let response: ExchangeParts["response"];
    let finished = false;
    const finish = (error?: string) => {
      if (finished) return;
      finished = true;
      const parts: ExchangeParts = {
        method: req.method ?? "GET",
        url: `${target.origin}${path ?? req.url ?? ""}`,
        requestHeaders: headers,
        requestBody,
        ...(response ? { response } : {}),
        ...(error ? { error } : {}),
        startedAt,
        limit: options.maxBodyBytes,
      };
      // After the response has gone: the judge runs on a later turn of the event loop, never in the way.
      setImmediate(() => hand(options, parts, settle));
    };
    if (path === undefined) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("contracts proxy: no path to forward\n");
      return finish("the request has no path the proxy can forward");
    }
    const upstream = route.send({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path,
      headers,
      setHost: false,
      agent: route.agent,
    });
    req.on("data", (chunk: Buffer) => requestBody.take(chunk));
    req.pipe(upstream);
    upstream.on("response", (answer) => {
      response = passOn(answer, res, responseBody, () => finish("the target broke off the response"));
    });
    upstream.on("error", (error: Error & { code?: string }) => {
      if (finished) return;
      const reason = error.code ?? error.message;
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(502, { "content-type": "text/plain; charset=utf-8" })
          .end(`contracts proxy: the target ${target.origin} did not answer: ${reason}\n`);
      finish(reason);
    });
    res.on("finish", () => finish());
    // The client went away before the whole response reached it: the target's side is dropped too, as it would be
    // without the proxy.
    res.on("close", () => {
      if (res.writableFinished) return;
      upstream.destroy();
      finish("the client closed the connection before the response was complete");
    });
  });
}

/** Streams the target's response to the client as it came, taking a copy for the judge. */
function passOn(
  answer: IncomingMessage,
  res: ServerResponse,
  body: BodyTap,
  brokenOff: () => void,
): NonNullable<ExchangeParts["response"]> {
  const rawHeaders = endToEndHeaders(answer.rawHeaders);
  // The target's headers as they are: no Date of our own, and only its end-to-end fields.
  res.sendDate = false;
  res.writeHead(answer.statusCode ?? 502, answer.statusMessage, rawHeaders);
  answer.on("data", (chunk: Buffer) => body.take(chunk));
  answer.pipe(res);
  for (const event of ["error", "aborted"])
    answer.on(event, () => {
      res.destroy();
      brokenOff();
    });
  return { status: answer.statusCode ?? 502, rawHeaders, body };
}

/** Hands the record to the judge; its failure is the proxy's warning, never the traffic's problem. */
function hand(options: ProxyOptions, parts: ExchangeParts, settle: () => void): void {
  try {
    options.onExchange(recordExchange(parts));
  } catch (error) {
    process.emitWarning(`contracts proxy: judging an exchange failed: ${(error as Error).message}`);
  } finally {
    settle();
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", (error: Error & { code?: string }) =>
      reject(
        new ProxyStartError(
          error.code === "EADDRINUSE"
            ? `port ${port} on ${host} is in use; choose another with --port`
            : `cannot listen on ${host}:${port}: ${error.code ?? error.message}`,
        ),
      ),
    );
    server.listen(port, host, resolve);
  });
}

export async function startRecordingProxy(options: ProxyOptions): Promise<RunningProxy> {
  const secure = options.target.protocol === "https:";
  // Connections to the target are kept and reused, as a client's would be: a new one per request would add a
  // handshake to every exchange.
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const route: Route = { target: options.target, send: secure ? httpsRequest : httpRequest, agent, options };
  const inFlight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const done = forward(route, req, res);
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  // The target's own time-outs apply, not ours: a slow upload or a long poll passes as it would without the proxy.
  server.requestTimeout = 0;
  await listen(server, options.host, options.port);
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    async stop(graceMs = 5_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.all(inFlight), grace]);
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
