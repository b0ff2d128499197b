// The few shapes of Prism's packages the mock touches. Prism's packages are CommonJS resolved at run time from
// @stoplight/prism-cli (see loadPrism in prism.ts), so their own typings cannot be imported from here; each
// interface is the part of Prism's typings (prism-core, prism-http, prism-http-server) that the mock uses.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Writable } from "node:stream";

export type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };

export interface PrismLogger {
  child(bindings: object): PrismLogger;
  info(message: string): void;
  info(bindings: object, message: string): void;
  warn(bindings: object, message: string): void;
  error(bindings: object, message: string): void;
}

/** One violation as Prism's validators report it (severity is @stoplight/types' DiagnosticSeverity, 0 = Error). */
export interface PrismViolation {
  path?: string[];
  code?: string | number;
  message: string;
  severity: number;
}

/** The request as Prism's HTTP server hands it to Prism (IHttpRequest). */
export interface PrismRequest {
  method: string;
  url: { path: string; baseUrl?: string; query: Record<string, string | string[]> };
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface MockedResponse {
  statusCode: number;
  headers?: Record<string, unknown>;
  body?: unknown;
}

/** Prism's ProblemJsonError (prism-http types.ts): `name` is the problem type URL, `message` its title. */
export interface ProblemJsonError extends Error {
  status?: number;
  detail?: string;
  additional?: { headers?: Record<string, string> };
}

export interface ErrorTemplate {
  type: string;
  title: string;
  status: number;
}

export interface MockConfig {
  dynamic: boolean;
  ignoreExamples: boolean;
  seed: string | null;
  exampleKey?: string;
  code?: number;
}

export interface MockerOptions {
  resource: { iid?: string };
  input: { data: PrismRequest; validations: PrismViolation[] };
  config: MockConfig;
}
export type Mocker = (options: MockerOptions) => (logger: PrismLogger) => Either<Error, MockedResponse>;

export interface PrismConfig {
  isProxy: false;
  validateRequest: boolean;
  validateResponse: boolean;
  checkSecurity: boolean;
  errors: boolean;
  upstreamProxy: undefined;
  mock: MockConfig;
}

export interface PrismResult {
  output: MockedResponse;
  validations: { input: PrismViolation[]; output: PrismViolation[] };
}

/** prism-http's createInstance: routing, validation and the mocker, without any HTTP server. */
export interface PrismInstance {
  request(
    input: PrismRequest,
    operations: unknown[],
    config: PrismConfig,
  ): () => Promise<Either<ProblemJsonError, PrismResult>>;
}

export interface PrismPackages {
  createInstance(config: PrismConfig, components: { logger: PrismLogger; mock: Mocker }): PrismInstance;
  /** A file path or URL, or the document itself (resolved in place). */
  getHttpOperationsFromSpec(document: string | object): Promise<unknown[]>;
  createLogger(name: string, options: { level: string }, destination: Writable): PrismLogger;
  mock: Mocker;
  /** prism-http-server's reading of `Prefer` (or `__code`, `__example`, ...) into the mock's settings. */
  getHttpConfigFromRequest(input: PrismRequest): Either<ProblemJsonError, Partial<MockConfig>>;
  /** prism-http-server's serializer of a mocked body for its content type. */
  serialize(payload: unknown, contentType: string | undefined): string | undefined;
  /** micri's body readers, the ones prism-http-server reads request bodies with (their errors carry `code`). */
  readJson(request: IncomingMessage, options: { limit: string }): Promise<unknown>;
  readText(request: IncomingMessage, options: { limit: string }): Promise<string>;
  /** prism-http's wording of Ajv errors as violations (context 0 = the request). */
  convertAjvErrors(errors: object[], severity: number, context: number, prefix: string): PrismViolation[];
  ProblemJsonError: { fromTemplate(template: ErrorTemplate, detail?: string, additional?: object): ProblemJsonError };
  /** prism-http's template of the error it answers a missing example with. */
  NOT_FOUND: ErrorTemplate;
  /** json-schema-faker, the generator behind `--dynamic`; its options are global to the process. */
  setFakerOption(name: string, value: unknown): void;
}
