// One API's contract at run time: its document, operations by operationId, the router, the validators and the
// examples, all built from the bundle once (see loadContract in index.ts).
import { type ApiName, loadBundle } from "./bundle.js";
import { examplesOf, type NamedExample } from "./examples.js";
import type { Document, HttpMethod, MediaType, Reference, Response } from "./model.js";
import { listOperationsOf, type OperationInfo } from "./operations.js";
import type { ParameterSource } from "./parameters.js";
import {
  type CheckContext,
  checkRequest,
  checkResponse,
  type HttpRequest,
  type HttpResponse,
  readParameters,
  type RequestCheck,
  successKeyOf,
} from "./requests.js";
import { canonicalPointer, deref, resolveAt } from "./refs.js";
import { type RouteMatch, Router } from "./router.js";
import type { OperationId } from "./typed.js";
import { type ValidateFunction, type ValidationResult, Validators } from "./validation.js";

export class Contract<A extends ApiName = ApiName> implements CheckContext {
  readonly document: Document;
  readonly validators: Validators;
  private readonly all: readonly OperationInfo[];
  private readonly byId: ReadonlyMap<string, OperationInfo>;
  private readonly router: Router;

  /** `document`: the canonical bundle unless given (an overlaid copy, see useContractDocument). */
  constructor(
    readonly api: A,
    document: Document = loadBundle(api),
  ) {
    this.document = document;
    this.all = listOperationsOf(this.document, api);
    this.byId = new Map(this.all.map((operation) => [operation.operationId, operation]));
    this.router = new Router(this.all);
    this.validators = new Validators(api, this.document);
  }

  /** Every operation, path operations first, then webhooks. */
  operations(): readonly OperationInfo[] {
    return this.all;
  }

  /** The operation with this operationId (checked at compile time; throws if the bundle lacks it). */
  operation(operationId: OperationId<A>): OperationInfo {
    const found = this.byId.get(operationId);
    if (!found) throw new Error(`${this.api} has no operation ${operationId}`);
    return found;
  }

  /** The operation with this operationId, when the id comes from data rather than code. */
  findOperation(operationId: string): OperationInfo | undefined {
    return this.byId.get(operationId);
  }

  route(method: string, pathname: string): RouteMatch | undefined {
    return this.router.route(method, pathname);
  }

  /** The methods the contract has at `pathname`: empty means 404, otherwise a missed route is a 405. */
  allowedMethods(pathname: string): HttpMethod[] {
    return this.router.allowedMethods(pathname);
  }

  /** A node that may be a `$ref`, followed (the caller states the type its position declares). */
  deref = <T>(node: T | Reference): T => deref(this.document, node, this.api);

  /** The value at a pointer, `$ref`s followed on the way and at the end. */
  resolve(pointer: string): unknown {
    return resolveAt(this.document, pointer, this.api);
  }

  canonicalPointer(pointer: string): string {
    return canonicalPointer(this.document, pointer, this.api);
  }

  validator(pointer: string): ValidateFunction {
    return this.validators.at(pointer);
  }

  validate(pointer: string, data: unknown): ValidationResult {
    return this.validators.validate(pointer, data);
  }

  readParameters(
    operation: OperationInfo,
    source: ParameterSource,
  ): { values: Record<string, unknown>; problems: string[] } {
    return readParameters(this, operation, source);
  }

  checkRequest(match: RouteMatch, request: HttpRequest): RequestCheck {
    return checkRequest(this, match, request);
  }

  /** What is wrong with a response to `operation` (empty when it conforms). */
  checkResponse(operation: OperationInfo, response: HttpResponse): string[] {
    return checkResponse(this, operation, response);
  }

  /** The documented response of an operation for a status key (`"200"`, `"4XX"`, `"default"`), refs followed. */
  response(operation: OperationInfo, statusKey: string): Response | undefined {
    const node = operation.operation.responses?.[statusKey];
    return node === undefined ? undefined : this.deref(node);
  }

  /**
   * The named examples (or example, or schema examples) of a response's media type. `status` is a response key;
   * without it, the operation's success response (`200`, `201`, … or a `2XX` range, see successKeyOf).
   */
  responseExamples(operationId: OperationId<A>, status?: string, mediaType = "application/json"): NamedExample[] {
    const operation = this.operation(operationId);
    const key = status ?? successKeyOf(operation);
    const media: MediaType | undefined =
      key === undefined ? undefined : this.response(operation, key)?.content?.[mediaType];
    return media ? examplesOf(media, this.deref) : [];
  }

  /**
   * A copy of one named response example's value (status as in responseExamples); throws when there is none by that
   * name.
   */
  responseExample(operationId: OperationId<A>, name: string, status?: string, mediaType = "application/json"): unknown {
    const found = this.responseExamples(operationId, status, mediaType).find((example) => example.name === name);
    if (!found)
      throw new Error(`${this.api} ${operationId} ${status ?? "success"} ${mediaType} has no example ${name}`);
    return found.value;
  }

  /** The examples of a request body's media type. */
  requestExamples(operationId: OperationId<A>, mediaType = "application/json"): NamedExample[] {
    const media = this.operation(operationId).requestBody?.content[mediaType];
    return media ? examplesOf(media, this.deref) : [];
  }
}
