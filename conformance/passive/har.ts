// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as browser developer tools, Playwright's recordHar,
// Insomnia and mitmproxy write it, read into exchanges in memory (the file is never copied). A file that is not a
// HAR at all is a usage error; an entry that cannot be judged (no response, a body left out of the recording, no URL)
// is a gap with its reason, and one bad entry never ends the run.
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { UsageError } from "../../lib/cli.js";
import type { Exchange, RecordedResponse } from "../model/exchange.js";
import type { PassiveGap } from "../model/recorded-traffic.js";

interface HarHeader {
  name?: unknown;
  value?: unknown;
}

interface HarEntry {
  startedDateTime?: unknown;
  time?: unknown;
  request?: {
    method?: unknown;
    url?: unknown;
    headers?: HarHeader[];
    postData?: { mimeType?: unknown; text?: unknown; params?: HarHeader[]; _file?: unknown };
  };
  response?: {
    status?: unknown;
    headers?: HarHeader[];
    content?: { size?: unknown; mimeType?: unknown; text?: unknown; encoding?: unknown; _file?: unknown };
    _error?: unknown;
  };
  _error?: unknown;
}

/** One entry of the recording: an exchange to judge, or why it cannot be judged; `note` qualifies a judged one. */
export type HarItem = { entry: number; exchange: Exchange; note?: string } | { entry: number; gap: PassiveGap };

export interface HarRecording {
  /** The tool that wrote it (`log.creator`), e.g. `Playwright 1.49.0`. */
  creator: string;
  /** In the order the responses arrived (the order the history checks read them). */
  items: HarItem[];
}

/** Headers by lower-case name as the runner records them (repeated ones joined), Set-Cookie kept one by one. */
function headersOf(list: HarHeader[] | undefined): { headers: Record<string, string>; setCookies: string[] } {
  const headers: Record<string, string> = {};
  const setCookies: string[] = [];
  for (const { name, value } of Array.isArray(list) ? list : []) {
    if (typeof name !== "string" || typeof value !== "string" || name.startsWith(":")) continue; // HTTP/2 pseudo-headers
    const key = name.toLowerCase();
    if (key === "set-cookie") setCookies.push(...value.split("\n"));
    headers[key] = key in headers && key !== "set-cookie" ? `${headers[key]}, ${value}` : value;
  }
  return { headers, setCookies };
}

/** Request headers under the names the checks read (`Authorization`, `Content-Type`, `Idempotency-Key`). */
const REQUEST_HEADER_NAMES: Record<string, string> = {
  authorization: "Authorization",
  "content-type": "Content-Type",
  "idempotency-key": "Idempotency-Key",
};

/** A response body as text: base64 decoded, and a compressed one (gzip, deflate, br) decompressed. */
function bodyText(
  content: NonNullable<HarEntry["response"]>["content"],
  contentEncoding: string | undefined,
): { text: string; note?: string } {
  const text = typeof content?.text === "string" ? content.text : "";
  if (content?.encoding !== "base64") return { text };
  let bytes = Buffer.from(text, "base64");
  const encoding = contentEncoding?.toLowerCase().trim();
  let note = `the body was recorded in base64 (${bytes.length} bytes)`;
  try {
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    else if (encoding === "br") bytes = brotliDecompressSync(bytes);
    else if (encoding === "deflate") bytes = inflateSync(bytes);
    if (bytes.length !== Buffer.from(text, "base64").length) note += `, decompressed to ${bytes.length} bytes`;
  } catch (error) {
    note += `; still ${encoding ?? "compressed"} and could not be decompressed (${(error as Error).message}): judged as recorded`;
  }
  const mime = typeof content.mimeType === "string" ? content.mimeType : "";
  const textual = /json|text|xml|javascript|x-www-form-urlencoded/i.test(mime);
  return {
    text: bytes.toString(textual ? "utf8" : "latin1"),
    note: textual ? note : `${note}, binary (${mime || "no media type"})`,
  };
}

function requestBody(postData: NonNullable<HarEntry["request"]>["postData"]): string | undefined {
  if (!postData) return undefined;
  if (typeof postData.text === "string") return postData.text;
  if (Array.isArray(postData.params))
    return new URLSearchParams(
      postData.params.map((p) => [
        typeof p.name === "string" ? p.name : "",
        typeof p.value === "string" ? p.value : "",
      ]),
    ).toString();
  return undefined;
}

/** An entry as an exchange, or the gap it is. */
function itemOf(raw: HarEntry, entry: number): HarItem {
  const request = raw.request;
  const method = typeof request?.method === "string" ? request.method.toUpperCase() : "?";
  const url = typeof request?.url === "string" ? request.url : "";
  const gap = (reason: string, status?: number): HarItem => ({
    entry,
    gap: { entry, method, url: url || "(no URL)", reason, ...(status ? { status } : {}) },
  });
  if (!request || !URL.canParse(url)) return gap("not a HAR entry: no request with an absolute URL");
  const response = raw.response;
  const status = typeof response?.status === "number" ? response.status : 0;
  const error = [raw._error, response?._error].find((e) => typeof e === "string" && e !== "") as string | undefined;
  if (!response || status <= 0) return gap(`recorded without a response${error ? ` (${error})` : ""}: not judged`);
  if (typeof request.postData?._file === "string" || typeof response.content?._file === "string")
    return gap("a body is stored beside the HAR (content: attach), not in it: not judged", status);
  const size = typeof response.content?.size === "number" ? response.content.size : 0;
  if (typeof response.content?.text !== "string" && size > 0)
    return gap(`the recording left the body out (${size} bytes; record with content embedded): not judged`, status);
  const { headers, setCookies } = headersOf(response.headers);
  const { text, note } = bodyText(response.content, headers["content-encoding"]);
  let json: unknown;
  let isJson = false;
  try {
    json = JSON.parse(text);
    isJson = true;
  } catch {
    // not JSON; the checks decide whether that matters
  }
  const recorded: RecordedResponse = { status, headers, text, json, isJson, setCookies };
  const requestHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headersOf(request.headers).headers))
    requestHeaders[REQUEST_HEADER_NAMES[name] ?? name] = value;
  const body = requestBody(request.postData);
  const started = typeof raw.startedDateTime === "string" ? Date.parse(raw.startedDateTime) : NaN;
  const durationMs = typeof raw.time === "number" && raw.time >= 0 ? Math.round(raw.time) : 0;
  const exchange: Exchange = {
    request: { method, url, headers: requestHeaders, ...(body !== undefined ? { body } : {}) },
    response: recorded,
    durationMs,
    receivedAt: (Number.isNaN(started) ? 0 : started) + durationMs,
  };
  return { entry, exchange, ...(note ? { note } : {}) };
}

/** Reads a HAR file's text; `name` is for messages. A file that is not a HAR is a usage error. */
export function readHar(text: string, name: string): HarRecording {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--har ${name}: not a HAR file: its JSON does not parse (${(error as Error).message}); a truncated file cannot be judged, export it again`,
    );
  }
  const log = (parsed as { log?: { entries?: unknown; creator?: { name?: unknown; version?: unknown } } } | null)?.log;
  if (!log || !Array.isArray(log.entries))
    throw new UsageError(`--har ${name}: not a HAR 1.2 file: it has no log.entries list`);
  const creator = [log.creator?.name, log.creator?.version].filter((p) => typeof p === "string").join(" ");
  const items = (log.entries as HarEntry[]).map((raw, index) =>
    raw !== null && typeof raw === "object" ? itemOf(raw, index + 1) : itemOf({}, index + 1),
  );
  const arrival = (item: HarItem) => ("exchange" in item ? item.exchange.receivedAt : 0);
  // Stable: entries that arrived together keep the recording's order.
  items.sort((a, b) => arrival(a) - arrival(b) || a.entry - b.entry);
  return { creator: creator || "an unnamed tool", items };
}
