// The checks of whether a server accepts what it should and refuses what it should: negative_data_rejection (invalid
// data), positive_data_acceptance (valid data) and ignored_auth (missing or wrong credentials). A refusal is what the
// contract calls one (contract/words.ts): HTTP >= 400, the error envelope, or an error redirect.
import { propertiesWith, resolveAt } from "../contract/lookup.js";
import type { RecordedResponse } from "../model/exchange.js";
import { assumptionBroken } from "./assumptions.js";
import { type ContractWord, envelopeError, isRefusal, requestWord } from "../contract/words.js";
import type { Outcome, ResponseCheckInput } from "./response-check-input.js";

/**
 * Invalid data is refused (a 4xx, an error envelope, or an error redirect where the operation redirects). Accepting it
 * fails only where the contract says the provider refuses it (`x-provider-refuses`); elsewhere the request-side
 * constraint only keeps clients honest, so the acceptance is an observation.
 */
export function negativeDataRejection(input: ResponseCheckInput): Outcome {
  const response = input.exchange.response;
  if (input.expectation !== "invalid" || !response) return undefined;
  if (response.status >= 500) return undefined; // not_a_server_error reports it
  const api = input.model.op.api;
  if (isRefusal(api, response) || isErrorRedirect(response)) return "";
  const what = input.violation?.description ?? "invalid data";
  const violation = input.violation;
  // The words on the node the invalid data broke (a parameter left out is judged by the parameter's own words).
  const wordOnViolation = (word: ContractWord) =>
    violation
      ? requestWord(api, input.model.op.pointer, violation.location, input.model.body?.pointer, word, violation.removed)
      : undefined;
  const promise = wordOnViolation("x-provider-refuses");
  if (promise === undefined) {
    input.note?.({
      kind: "observation",
      message: `${what}: accepted with status ${response.status}; the contract does not say the provider refuses it`,
    });
    return undefined;
  }
  const message = `invalid data was accepted with status ${response.status} (${what}), though the provider refuses it: ${promise}`;
  const assumption = wordOnViolation("x-assumption");
  return assumption === undefined ? message : assumptionBroken(input, message, assumption);
}

/** Valid data must be accepted (2xx or a documented redirect); 404 is fine for a path that names a resource. */
export function positiveDataAcceptance(input: ResponseCheckInput): Outcome {
  const response = input.exchange.response;
  if (input.expectation !== "valid" || !response || input.positiveAcceptanceSkipped) return undefined;
  const refusedInBody = envelopeError(input.model.op.api, response);
  if (response.status >= 200 && response.status < 300 && refusedInBody === undefined) return "";
  if (response.status >= 300 && response.status < 400 && !isErrorRedirect(response)) return "";
  // A path that names a resource may name one that does not exist: 404, or the envelope's error under 2xx.
  if (
    (response.status === 404 || (response.status < 300 && refusedInBody !== undefined)) &&
    input.model.op.path.includes("{")
  )
    return "";
  if (response.status >= 500) return undefined;
  const redirect = isErrorRedirect(response) ? ` (error redirect ${response.headers.location})` : "";
  const message =
    refusedInBody !== undefined
      ? `valid data was refused: ${refusedInBody} (status ${response.status})`
      : `valid data was refused with status ${response.status}${redirect}`;
  const assumption = assumedBodyProperty(input) ?? assumedParameter(input);
  return assumption === undefined ? message : assumptionBroken(input, message, assumption);
}

/** A secured operation must refuse a request without credentials and one with wrong credentials. */
export function ignoredAuth(input: ResponseCheckInput): Outcome {
  const response = input.exchange.response;
  if (input.expectation !== "unauthenticated" || !response) return undefined;
  if (response.status >= 500) return undefined;
  if (isRefusal(input.model.op.api, response)) return "";
  const sent = input.exchange.request.headers;
  const credentials = sent.Authorization || sent["x-seller-api-key"] ? "wrong" : "no";
  return `a request with ${credentials} credentials was answered with status ${response.status}`;
}

/** A redirect whose Location carries an `error` parameter (OAuth 2.0's error redirect). */
export function isErrorRedirect(response: RecordedResponse): boolean {
  const location = response.headers.location;
  if (response.status < 300 || response.status >= 400 || !location) return false;
  try {
    return new URL(location, "http://relative.invalid").searchParams.has("error");
  } catch {
    return false;
  }
}

/**
 * The x-assumption of a top-level body property that carries one itself, if the body schema has such a property:
 * where whether a field is required, or which values it takes, is our assumption (pay's createOrder), a provider
 * that refuses a body for it breaks that assumption, not its own word. A body-level assumption alone does not
 * count, so a provider that makes a documented optional field mandatory (catalog's thumbnail) still fails.
 */
function assumedBodyProperty(input: ResponseCheckInput): string | undefined {
  const bodyPointer = input.model.body?.pointer;
  if (!bodyPointer || input.exchange.request.body === undefined) return undefined;
  return propertiesWith(input.model.op.api, bodyPointer, "x-assumption").values().next().value;
}

/**
 * The x-assumption of a query parameter the request carries with another value than its examples, on the parameter
 * or its schema: where a parameter's range is our assumption (links' `limit` has no maximum the seed shows), a
 * provider that refuses a value in it breaks that assumption, not its own word. An example value is not the cause.
 */
function assumedParameter(input: ResponseCheckInput): string | undefined {
  const api = input.model.op.api;
  const query = new URL(input.exchange.request.url).searchParams;
  for (const parameter of input.model.parameters) {
    const sent = parameter.in === "query" ? query.get(parameter.name) : null;
    if (sent === null || parameter.examples.some((example) => String(example) === sent)) continue;
    for (const node of [resolveAt(api, parameter.pointer), resolveAt(api, `${parameter.pointer}/schema`)] as Array<
      Record<string, unknown>
    >) {
      if (typeof node["x-assumption"] === "string") return node["x-assumption"];
    }
  }
  return undefined;
}
