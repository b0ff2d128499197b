// The identity endpoints the sandbox checks against the contract before oidc-provider sees them: the token
// request (TokenRequest, client_secret_post only) and both variants of logout (the form POST is handed on as the GET
// variant).
import { IncomingMessage, type ServerResponse } from "node:http";
import {
  describeErrors,
  joinPointer,
  loadContract,
  mediaTypeOf,
  parseForm,
  type ValidateFunction,
  valueAt,
} from "../../lib/contract/index.js";
import { escapeHtml, page, tooLargeMessage } from "./http.js";
import { FORM_LIMIT_BYTES, sendHtml } from "./identity-pages.js";
import { ABORTED, logAborted, readBody } from "./read-body.js";

const FORM = "application/x-www-form-urlencoded";
/** oidc-provider's request handler (it answers through `res`; what it returns is not awaited). */
type Callback = (req: IncomingMessage, res: ServerResponse) => unknown;

function formValidator(operationId: "exchangeToken" | "logoutWithForm"): ValidateFunction {
  const identity = loadContract("identity");
  return identity.validator(
    joinPointer(identity.operation(operationId).pointer, "requestBody", "content", FORM, "schema"),
  );
}

/**
 * The token request's problems in words: those of the shape its grant_type selects (the schema's discriminator),
 * so that a code exchange is told what it lacks, not also what a refresh would; without a known grant_type, those
 * of every shape.
 */
function tokenRequestProblemsOf(): (form: Record<string, unknown>) => string | undefined {
  const identity = loadContract("identity");
  const whole = formValidator("exchangeToken");
  const schema = identity.deref(
    valueAt(
      identity.document,
      joinPointer(identity.operation("exchangeToken").pointer, "requestBody", "content", FORM, "schema"),
    ),
  ) as { discriminator?: { mapping?: Record<string, string> } };
  const shapes = new Map(
    Object.entries(schema.discriminator?.mapping ?? {}).map(([grant, ref]) => [
      grant,
      identity.validator(ref.slice(1)),
    ]),
  );
  return (form) => {
    const valid: boolean = whole(form); // not in the condition: Ajv's type guard would narrow `form` to never
    if (valid) return undefined;
    const shape = typeof form.grant_type === "string" ? shapes.get(form.grant_type) : undefined;
    if (shape && !shape(form)) return describeErrors(shape.errors, "body");
    // The oneOf over both grants reports every branch; its own keywords say nothing a reader can act on.
    const problems = (whole.errors ?? []).filter((error) => !["oneOf", "const", "enum"].includes(error.keyword));
    return describeErrors(problems, "body") || "the token request is malformed";
  };
}

/**
 * Parameters without the ones sent without a value, which count as omitted (RFC 6749 §3.1): `client_id=` means the
 * same by GET and by form POST.
 */
function withoutEmptyValues(params: Record<string, string | string[]>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ""));
}

function toSearch(params: Record<string, string | string[]>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, one);
  return search.toString();
}

/** A fresh request carrying a body that was already read, for handing on to oidc-provider's own body parser. */
function replayRequest(
  original: IncomingMessage,
  body: Uint8Array,
  target: { method?: string; url?: string } = {},
): IncomingMessage {
  const copy = new IncomingMessage(original.socket);
  copy.method = target.method ?? original.method;
  copy.url = target.url ?? original.url;
  copy.httpVersion = original.httpVersion;
  copy.headers = { ...original.headers, "content-length": String(body.byteLength) };
  copy.rawHeaders = original.rawHeaders;
  copy.complete = true; // otherwise ending the copy counts as an aborted request and closes the socket
  copy.push(Buffer.from(body));
  copy.push(null);
  return copy;
}

/** An OAuth error response (RFC 6749 §5.2); the description keeps to the characters the RFC allows. */
export function sendOAuthError(
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    pragma: "no-cache",
    ...headers,
  });
  res.end(JSON.stringify({ error, error_description: description.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, "'") }));
}

/**
 * The client authentication the contract has not: HTTP Basic (client_secret_basic) or any other Authorization
 * header. oidc-provider accepts Basic for every client_secret_post client, but discovery and the contract offer
 * client_secret_post only, so a client that works against the sandbox must send client_id and client_secret in the
 * body. RFC 6749 §5.2: invalid_client, and 401 with a WWW-Authenticate of the scheme the client tried.
 */
function refuseAuthorizationHeader(req: IncomingMessage, res: ServerResponse, realm: string): boolean {
  const authorization = req.headers.authorization;
  if (authorization === undefined) return false;
  const scheme = /^[!#$%&'*+.^_`|~\w-]+/.exec(authorization)?.[0] ?? "Basic";
  const description =
    "client authentication by the Authorization header is not supported: send client_id and client_secret in the form body (client_secret_post)";
  sendOAuthError(res, 401, "invalid_client", description, {
    "www-authenticate": `${scheme} realm="${realm}", error="invalid_client"`,
  });
  return true;
}

/**
 * The token request checked against the contract's TokenRequest first. Requests without client credentials
 * go on to oidc-provider, which answers them with invalid_client (401) as RFC 6749 §5.2 says.
 */
export function tokenEndpoint(
  callback: Callback,
  issuer: string,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const tokenRequestProblems = tokenRequestProblemsOf();
  return async (req, res) => {
    const body = await readBody(req, FORM_LIMIT_BYTES);
    if (body === ABORTED) return logAborted("identity", req);
    const oauthError = (error: string, description: string) => sendOAuthError(res, 400, error, description);
    // 413 in the OAuth envelope, as the identity front door and the other APIs answer a body over their limit.
    if (body === undefined) {
      return sendOAuthError(res, 413, "invalid_request", tooLargeMessage(FORM_LIMIT_BYTES));
    }
    if (refuseAuthorizationHeader(req, res, issuer)) return;
    if (mediaTypeOf(req.headers["content-type"]) === FORM) {
      const form = parseForm(body);
      if (typeof form.grant_type === "string" && !["authorization_code", "refresh_token"].includes(form.grant_type)) {
        return oauthError("unsupported_grant_type", "Only authorization_code and refresh_token are supported.");
      }
      const problems = form.client_id !== undefined && form.client_secret !== undefined && tokenRequestProblems(form);
      if (problems) return oauthError("invalid_request", problems);
    }
    callback(replayRequest(req, body), res);
  };
}

/**
 * Both variants of logout, checked against the contract's parameters. The form POST (RP-Initiated Logout §2) is
 * accepted by oidc-provider only with SameSite=None cookies, which need HTTPS, so it is handed on as the GET variant.
 */
export function logoutEndpoints(callback: Callback, logoutPath: string) {
  const logoutRequestValid = formValidator("logoutWithForm");
  const refuse = (res: ServerResponse, reason: string) =>
    sendHtml(res, 400, page("Sign-out error", `<h1>Sign-out error</h1><p>${reason}</p>`));
  const target = (params: Record<string, string | string[]>) => {
    const search = toSearch(params);
    return `${logoutPath}${search ? `?${search}` : ""}`;
  };
  return {
    async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const body = await readBody(req, FORM_LIMIT_BYTES);
      if (body === ABORTED) return logAborted("identity", req);
      if (body === undefined) {
        return sendHtml(
          res,
          413,
          page("Sign-out error", `<h1>Sign-out error</h1><p>${tooLargeMessage(FORM_LIMIT_BYTES)}</p>`),
        );
      }
      const isForm = body !== undefined && (body.byteLength === 0 || mediaTypeOf(req.headers["content-type"]) === FORM);
      const form = isForm ? withoutEmptyValues(parseForm(body)) : undefined;
      if (form === undefined || !logoutRequestValid(form))
        return refuse(res, `Send the logout parameters as an ${FORM} form of at most ${FORM_LIMIT_BYTES} bytes.`);
      callback(replayRequest(req, new Uint8Array(0), { method: "GET", url: target(form) }), res);
    },
    get(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const query = withoutEmptyValues(Object.fromEntries(new URL(req.url ?? "/", "http://sandbox").searchParams));
      if (!logoutRequestValid(query)) {
        refuse(
          res,
          `The logout parameters do not match the contract: ${escapeHtml(describeErrors(logoutRequestValid.errors))}.`,
        );
        return Promise.resolve();
      }
      req.url = target(query);
      callback(req, res);
      return Promise.resolve();
    },
  };
}
