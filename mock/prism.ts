// Serves one Prism mock per API from the bundled contracts, all inside this process, through Prism's own HTTP
// server package (what `prism mock` runs), so that one process holds every port and its end frees them all.
import { createRequire, Module } from "node:module";
import { createServer } from "node:net";
import { Writable } from "node:stream";
import { API_NAMES, type ApiName, mediaTypeOf } from "../lib/contract/index.js";
import { bundlePath } from "../lib/paths.js";
import { explainRefusal, type Violation } from "./refusals.js";

export const DEFAULT_MOCK_PORTS: Record<ApiName, number> = { identity: 4010, links: 4011, catalog: 4012, pay: 4013 };

export interface MockOptions {
  apis?: readonly ApiName[];
  host?: string;
  ports?: Partial<Record<ApiName, number>>;
  /** Generate data from the schemas instead of serving the named examples. */
  dynamic?: boolean;
  /** Print Prism's request log (info level); quiet otherwise, like `prism mock -v error` without its output. */
  verbose?: boolean;
  /** Where the request log goes when verbose; defaults to stderr. */
  log?: (line: string) => void;
}

export interface RunningMock {
  api: ApiName;
  url: string;
  port: number;
}

export interface RunningMocks {
  mocks: RunningMock[];
  /** Stops listening on every port; resolves when all servers are closed. */
  stop(): Promise<void>;
}

/** A problem the user can fix (a port in use, a contract Prism cannot read), reported in one line. */
export class MockStartError extends Error {}

export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

// The few shapes of Prism's packages this module touches (they ship no types we can import from here).
interface PrismLogger {
  child(bindings: object): PrismLogger;
}
type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };
interface MockedResponse {
  statusCode: number;
  headers?: Record<string, unknown>;
  body?: unknown;
}
interface MockerOptions {
  resource: { iid?: string };
  input: { validations: Array<Violation & { severity: number }> };
  config: { exampleKey?: string; code?: number };
}
type Mocker = (options: MockerOptions) => (logger: PrismLogger) => Either<Error, MockedResponse>;
interface PrismServer {
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}
interface PrismPackages {
  createServer(operations: unknown[], options: { cors: boolean; config: object; components: { logger: PrismLogger; mock: Mocker } }): PrismServer;
  getHttpOperationsFromSpec(document: string): Promise<unknown[]>;
  createLogger(name: string, options: { level: string }, destination: Writable): PrismLogger;
  mock: Mocker;
  /** json-schema-faker, the generator behind `--dynamic`; its options are global to the process. */
  setFakerOption(name: string, value: unknown): void;
}

let prismPackages: PrismPackages | undefined;

// Prism's packages are dependencies of @stoplight/prism-cli (ours): resolve them from there, so that they are the
// versions `prism mock` itself runs. Loaded on first use, since they take about a second to load.
function loadPrism(): PrismPackages {
  if (!prismPackages) {
    const fromPrismCli = createRequire(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json"));
    const fromPrismHttp = createRequire(fromPrismCli.resolve("@stoplight/prism-http/package.json"));
    loadEnglishFakerOnly(fromPrismHttp);
    // require() is untyped; each module is read as the part of its own typings that PrismPackages names.
    const { JSONSchemaFaker } = fromPrismHttp("json-schema-faker") as { JSONSchemaFaker: { option(name: string, value: unknown): void } };
    prismPackages = {
      createServer: (fromPrismCli("@stoplight/prism-http-server") as Pick<PrismPackages, "createServer">).createServer,
      getHttpOperationsFromSpec: (fromPrismCli("@stoplight/prism-http") as Pick<PrismPackages, "getHttpOperationsFromSpec">).getHttpOperationsFromSpec,
      createLogger: (fromPrismCli("@stoplight/prism-core") as Pick<PrismPackages, "createLogger">).createLogger,
      mock: (fromPrismCli("@stoplight/prism-http/dist/mocker") as { default: PrismPackages["mock"] }).default,
      setFakerOption: (name, value) => JSONSchemaFaker.option(name, value),
    };
  }
  return prismPackages;
}

/**
 * Prism's generator requires `@faker-js/faker`, whose main entry builds every one of its ~50 locales: that is most
 * of Prism's load time (about 0.9 of 1.4 s). Prism uses only the default English faker (its `default` export), which
 * the package also ships alone as `@faker-js/faker/locale/en`; a replaced `require.cache` entry (a documented Node
 * API) hands Prism that one instead.
 */
function loadEnglishFakerOnly(fromPrismHttp: NodeJS.Require): void {
  const main = fromPrismHttp.resolve("@faker-js/faker");
  if (fromPrismHttp.cache[main]) return;
  const english: unknown = fromPrismHttp("@faker-js/faker/locale/en");
  const entry = new Module(main);
  entry.filename = main;
  entry.exports = { default: english, faker: english };
  entry.loaded = true;
  fromPrismHttp.cache[main] = entry;
}

const ERROR_SEVERITY = 0; // DiagnosticSeverity.Error of @stoplight/types

/**
 * Prism's mocker, except that a refused request gets the documented error body with the violations as its message
 * (Prism alone answers with the error example as written, e.g. "A valid API key is required" for a bad body).
 * An example asked for by name and status (`Prefer: code=422, example=...`) is served as written.
 */
function explainingMocker(api: ApiName, mock: Mocker): Mocker {
  return (options) => (logger) => {
    const result = mock(options)(logger);
    const violations = options.input.validations.filter((v) => v.severity === ERROR_SEVERITY);
    if (result._tag === "Right" && violations.length > 0 && options.resource.iid) {
      const response = result.right;
      // Prism serves a named example for a refused request only with its status (`code=422, example=...`).
      const askedFor = options.config.exampleKey !== undefined && options.config.code === response.statusCode;
      if (askedFor) return result;
      const contentType = response.headers?.["Content-type"];
      const mediaType = mediaTypeOf(typeof contentType === "string" ? contentType : undefined);
      response.body = explainRefusal(api, options.resource.iid, response.statusCode, mediaType, response.body, violations);
    }
    return result;
  };
}

/** A pino destination that prints Prism's JSON log lines as `[api] message`, with the request where Prism names it. */
function logLines(api: ApiName, log: (line: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) {
        try {
          const entry = JSON.parse(line) as { msg?: string; input?: { method?: string; url?: { path?: string } } };
          const request = entry.input ? ` ${entry.input.method?.toUpperCase()} ${entry.input.url?.path}` : "";
          log(`[${api}]${request} ${entry.msg ?? line}`);
        } catch {
          log(`[${api}] ${line}`);
        }
      }
      done();
    },
  });
}

async function startOne(prism: PrismPackages, api: ApiName, host: string, port: number, options: MockOptions): Promise<PrismServer> {
  let operations: unknown[];
  try {
    operations = await prism.getHttpOperationsFromSpec(bundlePath(api));
  } catch (error) {
    throw new MockStartError(`Prism could not read the ${api} contract (${bundlePath(api)}): ${(error as Error).message ?? error}`);
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const logger = prism.createLogger("CLI", { level: options.verbose ? "info" : "silent" }, logLines(api, log));
  // The settings of `prism mock` (prism-cli's createPrismServerWithLogger) with its defaults: CORS on, requests and
  // responses validated, security checked.
  const server = prism.createServer(operations, {
    cors: true,
    config: {
      isProxy: false,
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: false,
      upstreamProxy: undefined,
      mock: { dynamic: options.dynamic ?? false, ignoreExamples: false, seed: null },
    },
    components: { logger: logger.child({ name: "HTTP SERVER" }), mock: explainingMocker(api, prism.mock) },
  });
  try {
    await server.listen(port, host);
  } catch (error) {
    // Prism rejects with the message alone, e.g. "listen EADDRINUSE: address already in use 127.0.0.1:4011".
    throw new MockStartError(`the ${api} mock could not listen on ${host}:${port}: ${(error as Error).message ?? error}`);
  }
  return server;
}

export async function startMocks(options: MockOptions = {}): Promise<RunningMocks> {
  const apis = options.apis ?? API_NAMES;
  const host = options.host ?? "127.0.0.1";
  const ports = { ...DEFAULT_MOCK_PORTS, ...options.ports };

  for (const api of apis) {
    if (!(await portIsFree(host, ports[api]))) {
      throw new MockStartError(`port ${ports[api]} on ${host} is already in use (wanted for the ${api} mock); free it or choose another with --port ${api}=<port>`);
    }
  }

  const prism = loadPrism();
  // Without fillProperties=false the faker adds random properties, breaking our closed schemas (`prism mock
  // --json-schema-faker-fillProperties=false`). Static examples do not use the faker.
  if (options.dynamic) prism.setFakerOption("fillProperties", false);

  const started = await Promise.allSettled(apis.map((api) => startOne(prism, api, host, ports[api], options)));
  const servers = started.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const stop = async () => {
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  };
  const failure = started.find((outcome) => outcome.status === "rejected");
  if (failure) {
    await stop();
    throw failure.reason;
  }
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return { mocks: apis.map((api) => ({ api, port: ports[api], url: `http://${urlHost}:${ports[api]}` })), stop };
}
