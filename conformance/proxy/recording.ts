// What the proxy keeps of an exchange for the judge: the request and response as conformance/send/transport.ts records
// the active run's, built from copies of at most --max-body bytes of each body taken while the bytes stream through.
// A larger body is passed on whole but marked too large instead of being kept.
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { PreparedRequest } from "../apis.js";
import type { Exchange, RecordedResponse } from "../model/exchange.js";
import { recordedHeaders } from "./headers.js";

/** An exchange as the proxy saw it pass. */
export interface ProxiedExchange extends Exchange {
  /** The request body was larger than this many bytes (--max-body): `request.body` is unset. */
  requestTooLarge?: number;
  /** Why a body the exchange carried cannot be judged (an unknown content coding, bytes that do not decode). */
  unreadable?: string;
}

/** Keeps the first `limit` bytes of a body and counts all of them; the body itself flows on untouched. */
export class BodyTap {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  size = 0;
  constructor(private readonly limit: number) {}

  take(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.kept >= this.limit) return;
    const part = chunk.length > this.limit - this.kept ? chunk.subarray(0, this.limit - this.kept) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }

  get tooLarge(): boolean {
    return this.size > this.limit;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

type Decoder = (bytes: Buffer, options: { maxOutputLength: number }) => Buffer;

/** The content codings of RFC 9110 §8.4.1 and brotli (RFC 7932), which every browser sends. */
const DECODERS: Record<string, Decoder | undefined> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The text of a body for judging: decoded from its Content-Encoding (the proxy passes the encoded bytes on as they
 * are), at most `limit` bytes. `tooLarge` when the body, or what it decodes to, is larger; `problem` when a coding
 * is unknown or the bytes do not decode.
 */
export function bodyText(
  tap: BodyTap,
  contentEncoding: string | undefined,
  limit: number,
): { text: string; tooLarge?: number; problem?: string } {
  if (tap.tooLarge) return { text: "", tooLarge: limit };
  let bytes = tap.bytes();
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== "identity");
  // Codings are listed in the order they were applied: undo the last first.
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return { text: "", problem: `the body is ${coding}-encoded, which the proxy cannot decode to judge` };
    try {
      bytes = decode(bytes, { maxOutputLength: limit });
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return { text: "", tooLarge: limit };
      return { text: "", problem: `the ${coding}-encoded body does not decode: ${(error as Error).message}` };
    }
  }
  return { text: bytes.toString("utf8") };
}

export interface ExchangeParts {
  method: string;
  url: string;
  /** The request's headers as forwarded (raw). */
  requestHeaders: string[];
  requestBody: BodyTap;
  response?: { status: number; rawHeaders: string[]; body: BodyTap };
  error?: string;
  startedAt: number;
  limit: number;
}

/** The exchange the judge gets, from what streamed through. */
export function recordExchange(parts: ExchangeParts): ProxiedExchange {
  const { headers } = recordedHeaders(parts.requestHeaders);
  const requestBody = bodyText(parts.requestBody, headers["content-encoding"], parts.limit);
  const request: PreparedRequest = { method: parts.method, url: parts.url, headers };
  if (parts.requestBody.size > 0 && requestBody.tooLarge === undefined) request.body = requestBody.text;
  const exchange: ProxiedExchange = {
    request,
    durationMs: Date.now() - parts.startedAt,
    receivedAt: Date.now(),
    ...(requestBody.tooLarge === undefined ? {} : { requestTooLarge: requestBody.tooLarge }),
  };
  if (parts.error) exchange.error = parts.error;
  if (requestBody.problem) exchange.unreadable = `request: ${requestBody.problem}`;
  if (parts.response) {
    const { response, problem } = recordedResponse(parts.response, parts.limit);
    exchange.response = response;
    if (problem) exchange.unreadable = `response: ${problem}`;
  }
  return exchange;
}

function recordedResponse(
  response: NonNullable<ExchangeParts["response"]>,
  limit: number,
): { response: RecordedResponse; problem?: string } {
  const { headers, setCookies } = recordedHeaders(response.rawHeaders);
  const body = bodyText(response.body, headers["content-encoding"], limit);
  let json: unknown;
  let isJson = false;
  // A body cut at the limit or not decoded is not parsed: it is too large, or undecodable, not "not JSON".
  if (body.tooLarge === undefined && body.problem === undefined) {
    try {
      json = JSON.parse(body.text);
      isJson = true;
    } catch {
      // not JSON; the checks decide whether that matters
    }
  }
  const recorded: RecordedResponse = { status: response.status, headers, text: body.text, json, isJson, setCookies };
  if (body.tooLarge !== undefined) recorded.tooLarge = body.tooLarge;
  return { response: recorded, ...(body.problem ? { problem: body.problem } : {}) };
}
