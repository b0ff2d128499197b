// Serves one Prism mock per API from the bundled contracts, all inside this process, with Prism's own router,
// validators and mocker (prism-http, what `prism mock` runs) behind an HTTP front that answers in each API's
// envelope (server.ts), so that one process holds every port and its end frees them all.
import type { Server } from "node:http";
import { createRequire, Module } from "node:module";
import { createServer } from "node:net";
import { Writable } from "node:stream";
import { API_NAMES, type ApiName } from "../lib/contract/index.js";
import { bundlePath } from "../lib/paths.js";
import { contractMocker } from "./mocker.js";
import type { PrismPackages } from "./prism-types.js";
import { createMockServer } from "./server.js";

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
  /** Serve these APIs from these documents (an overlay applied, `--overlay`) instead of their bundles. */
  documents?: Partial<Record<ApiName, object>>;
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

let prismPackages: PrismPackages | undefined;

// Prism's packages are dependencies of @stoplight/prism-cli (ours): resolve them from there, so that they are the
// versions `prism mock` itself runs. Loaded on first use, since they take about a second to load.
function loadPrism(): PrismPackages {
  if (!prismPackages) {
    const fromPrismCli = createRequire(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json"));
    const fromPrismHttp = createRequire(fromPrismCli.resolve("@stoplight/prism-http/package.json"));
    loadEnglishFakerOnly(fromPrismHttp);
    const { JSONSchemaFaker } = fromPrismHttp("json-schema-faker") as {
      JSONSchemaFaker: { option(name: string, value: unknown): void };
    };
    const fromPrismHttpServer = createRequire(fromPrismCli.resolve("@stoplight/prism-http-server/package.json"));
    // require() is untyped; each module is read as the part of its own typings that PrismPackages names.
    const http = fromPrismCli("@stoplight/prism-http") as Pick<
      PrismPackages,
      "createInstance" | "getHttpOperationsFromSpec" | "ProblemJsonError" | "NOT_FOUND"
    >;
    const micri = fromPrismHttpServer("micri") as { json: PrismPackages["readJson"]; text: PrismPackages["readText"] };
    prismPackages = {
      createInstance: http.createInstance,
      getHttpOperationsFromSpec: http.getHttpOperationsFromSpec,
      createLogger: (fromPrismCli("@stoplight/prism-core") as Pick<PrismPackages, "createLogger">).createLogger,
      mock: (fromPrismCli("@stoplight/prism-http/dist/mocker") as { default: PrismPackages["mock"] }).default,
      getHttpConfigFromRequest: (
        fromPrismCli("@stoplight/prism-http-server/dist/getHttpConfigFromRequest") as Pick<
          PrismPackages,
          "getHttpConfigFromRequest"
        >
      ).getHttpConfigFromRequest,
      serialize: (fromPrismCli("@stoplight/prism-http-server/dist/serialize") as Pick<PrismPackages, "serialize">)
        .serialize,
      readJson: micri.json,
      readText: micri.text,
      convertAjvErrors: (
        fromPrismCli("@stoplight/prism-http/dist/validator/validators/utils") as Pick<PrismPackages, "convertAjvErrors">
      ).convertAjvErrors,
      ProblemJsonError: http.ProblemJsonError,
      NOT_FOUND: http.NOT_FOUND,
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

async function startOne(
  prism: PrismPackages,
  api: ApiName,
  host: string,
  port: number,
  options: MockOptions,
): Promise<Server> {
  let operations: unknown[];
  try {
    // Prism resolves the document it is given in place: an overlaid one is given as a copy.
    const document = options.documents?.[api];
    operations = await prism.getHttpOperationsFromSpec(document ? structuredClone(document) : bundlePath(api));
  } catch (error) {
    throw new MockStartError(
      `Prism could not read the ${api} contract (${bundlePath(api)}): ${(error as Error).message ?? error}`,
    );
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const logger = prism
    .createLogger("CLI", { level: options.verbose ? "info" : "silent" }, logLines(api, log))
    .child({ name: "HTTP SERVER" });
  // The settings of `prism mock` (prism-cli's createPrismServerWithLogger) with its defaults: CORS on, requests and
  // responses validated, security checked.
  const config = {
    isProxy: false,
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    upstreamProxy: undefined,
    mock: { dynamic: options.dynamic ?? false, ignoreExamples: false, seed: null },
  } as const;
  const describeAjvErrors = (errors: object[]) => prism.convertAjvErrors(errors, 0, 0, "body"); // Error, in the request body
  const instance = prism.createInstance(config, { logger, mock: contractMocker(api, prism, describeAjvErrors) });
  const server = createMockServer({ api, prism, instance, operations, config, logger });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(new MockStartError(`the ${api} mock could not listen on ${host}:${port}: ${error.message}`)),
    );
    server.listen(port, host, resolve);
  });
  return server;
}

/** Stops listening and ends the connections that wait for another request (keep-alive), so the port is free. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

export async function startMocks(options: MockOptions = {}): Promise<RunningMocks> {
  const apis = options.apis ?? API_NAMES;
  const host = options.host ?? "127.0.0.1";
  const ports = { ...DEFAULT_MOCK_PORTS, ...options.ports };

  for (const api of apis) {
    if (!(await portIsFree(host, ports[api]))) {
      throw new MockStartError(
        `port ${ports[api]} on ${host} is already in use (wanted for the ${api} mock); free it or choose another with --port ${api}=<port>`,
      );
    }
  }

  const prism = loadPrism();
  // Without fillProperties=false the faker adds random properties, breaking our closed schemas (`prism mock
  // --json-schema-faker-fillProperties=false`). Static examples do not use the faker.
  if (options.dynamic) prism.setFakerOption("fillProperties", false);

  const started = await Promise.allSettled(apis.map((api) => startOne(prism, api, host, ports[api], options)));
  const servers = started.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const stop = async () => {
    await Promise.all(servers.map(close));
  };
  const failure = started.find((outcome) => outcome.status === "rejected");
  if (failure) {
    await stop();
    throw failure.reason;
  }
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return { mocks: apis.map((api) => ({ api, port: ports[api], url: `http://${urlHost}:${ports[api]}` })), stop };
}
