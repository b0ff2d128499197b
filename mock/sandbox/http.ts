// The framework-free request/response shapes every sandbox API is written against. The node:http adapter
// (server.ts) and the MSW adapter (../msw.ts) translate to and from them, so one implementation runs both ways.

/** Where the sandbox serves each API by default (identity 4020, links 4021, catalog 4022, pay 4023). */
export const DEFAULT_SANDBOX_PORTS = { identity: 4020, links: 4021, catalog: 4022, pay: 4023 } as const;
/** Both adapters refuse bigger bodies with 413 in the API's envelope. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** JSON bodies nested deeper are refused with 400 before any parsing (no legitimate body comes close). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`: one pass over the bytes, brackets inside strings
 * skipped, so that no later step (parsing, validation, a fingerprint) ever walks a value thousands of levels deep.
 */
export function jsonTooDeep(body: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]!;
    if (inString) {
      if (byte === 0x5c)
        i++; // a backslash escapes the next byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > limit) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}

/** The part of a request the APIs look at. `body` holds the exact bytes received (pay signs them). */
export interface SandboxRequest {
  method: string;
  url: URL;
  headers: { get(name: string): string | null };
  body: Uint8Array;
}

export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One API of the sandbox: a request handler plus the API's own error envelope, used by the adapters too. */
export interface SandboxApi {
  handle(request: SandboxRequest): Promise<SandboxResponse>;
  /**
   * A refusal in the API's own envelope, for what an adapter refuses before `handle` (e.g. a body too large).
   * `request` (with an empty body) lets the API account for it, e.g. in a rate limit.
   */
  refuse(status: number, message: string, request?: SandboxRequest): SandboxResponse;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): SandboxResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(body),
  };
}

export function html(status: number, body: string, headers: Record<string, string> = {}): SandboxResponse {
  return { status, headers: { "content-type": "text/html; charset=utf-8", ...headers }, body };
}

export function redirect(location: string, status = 303): SandboxResponse {
  return { status, headers: { location }, body: "" };
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A small HTML page in the sandbox's plain style (no scripts, forms work without JavaScript). */
export function page(title: string, content: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
fieldset{margin:0 0 1rem;border:1px solid #ccc;border-radius:6px}button{margin:.25rem .5rem .25rem 0;padding:.4rem .9rem}
input,select{padding:.3rem;margin:.2rem 0;width:100%;box-sizing:border-box}.error{color:#b00020}.note{color:#555;font-size:.9em}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}</style></head>
<body>
${content}
<p class="note">Stateful sandbox: demo data, no real accounts or money.</p>
</body>
</html>
`;
}

/** A copy of `value` without `keys` (e.g. the sandbox's own bookkeeping fields before a row goes out). */
export function omit<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const copy: Partial<T> = { ...value };
  for (const key of keys) delete copy[key];
  return copy as Omit<T, K>;
}

/** UTC date and time in the providers' `YYYY-MM-DD HH:MM:SS` form. */
export function formatDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

export const tooLargeMessage = (maxBodyBytes: number) => `the request body is larger than ${maxBodyBytes} bytes`;

/** The refusal of a body over either limit (size: 413, nesting: 400) in the API's envelope, shared by both adapters. */
export function limitRefusal(
  api: SandboxApi,
  request: SandboxRequest,
  maxBodyBytes: number,
): SandboxResponse | undefined {
  const withoutBody = { ...request, body: new Uint8Array(0) };
  if (request.body.byteLength > maxBodyBytes) return api.refuse(413, tooLargeMessage(maxBodyBytes), withoutBody);
  if (jsonTooDeep(request.body))
    return api.refuse(400, `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`, withoutBody);
  return undefined;
}
