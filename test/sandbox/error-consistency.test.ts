// One error behaviour everywhere (issue 36): the same bad requests sent to the Prism mock and to the sandbox of each
// API get the same status (the one the contract implies: 401 without the credential, 404 for an unknown path, 400
// for malformed JSON, and for a missing field the status lib/contract's invalidRequestStatus reads from the
// operation's documented responses, as Prism does), the same error envelope (the same fields, JSON), and a message
// that names the header, field or path at fault. A wrong credential the mock cannot know (it accepts any): the
// sandbox's refusal is compared with the mock's documented answer for that status (`Prefer: code=`). A body over
// the limit both share (1 MiB) is 413 on every API, identity's in the OAuth envelope; a method a path lacks is 405,
// also when its body is malformed JSON (the method is refused before the body is read).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES, type ApiName, invalidRequestStatus, loadContract } from "../../lib/contract/index.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { type RunningSandbox, startSandbox } from "../../mock/sandbox/server.js";
import { testPort } from "../support/ports.js";

type Case =
  | "no credential"
  | "wrong credential"
  | "missing field"
  | "malformed JSON"
  | "unknown path"
  | "oversized body"
  | "wrong method"
  | "malformed POST on a GET-only path";

interface BadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What the message must name. */
  names: RegExp;
}

const JSON_TYPE = { "content-type": "application/json" };
const FORM_TYPE = { "content-type": "application/x-www-form-urlencoded" };
const PAY_BODY = '{"shop_id":"3561","nonce":1}';
const SIGNED = { authorization: `Bearer ${"0".repeat(64)}` };
const VERIFIER = "a".repeat(43);
const TOKEN_PATH = loadContract("identity").operation("exchangeToken").path;
/** A little over the 1 MiB that the mock and the sandbox accept. */
const OVER_LIMIT = "a".repeat(1024 * 1024 + 1024);
const TOO_LARGE = /larger than 1048576 bytes/;

const CASES: Record<ApiName, Partial<Record<Case, BadRequest>>> = {
  links: {
    "wrong method": { method: "DELETE", path: "/api/account", headers: {}, names: /DELETE .*\/api\/account\b/ },
    // The method is wrong before the body is: 405, not a 400 about the JSON (issue 45).
    "malformed POST on a GET-only path": {
      method: "POST",
      path: "/api/account",
      headers: { authorization: "Bearer demo-links-key", ...JSON_TYPE },
      body: "{",
      names: /POST .*\/api\/account\b/,
    },
    "no credential": { method: "GET", path: "/api/account", headers: {}, names: /Authorization/ },
    "wrong credential": { method: "GET", path: "/api/account", headers: { authorization: "Bearer no" }, names: /key/ },
    // links' create operations have no required field: none to leave out.
    "malformed JSON": {
      method: "POST",
      path: "/api/campaign/add",
      headers: { authorization: "Bearer demo-links-key", ...JSON_TYPE },
      body: "{",
      names: /JSON/,
    },
    "unknown path": { method: "GET", path: "/api/nothing", headers: {}, names: /\/api\/nothing/ },
    "oversized body": {
      method: "POST",
      path: "/api/campaign/add",
      headers: { authorization: "Bearer demo-links-key", ...JSON_TYPE },
      body: `{"name":"${OVER_LIMIT}"}`,
      names: TOO_LARGE,
    },
  },
  catalog: {
    "wrong method": {
      method: "DELETE",
      path: "/admin/seller-api/me",
      headers: {},
      names: /DELETE .*\/admin\/seller-api\/me\b/,
    },
    "malformed POST on a GET-only path": {
      method: "POST",
      path: "/admin/seller-api/me",
      headers: { "x-seller-api-key": "demo-seller-key", ...JSON_TYPE },
      body: "{",
      names: /POST .*\/admin\/seller-api\/me\b/,
    },
    "no credential": { method: "GET", path: "/admin/seller-api/me", headers: {}, names: /x-seller-api-key/ },
    "wrong credential": {
      method: "GET",
      path: "/admin/seller-api/me",
      headers: { "x-seller-api-key": "no" },
      names: /key/i,
    },
    "missing field": {
      method: "POST",
      path: "/admin/seller-api/products",
      headers: {
        "x-seller-api-key": "demo-seller-key",
        "idempotency-key": "7c0e9a52-3f1b-4d8e-9a61-2b5f0c4d8e17",
        ...JSON_TYPE,
      },
      body: "{}",
      names: /'title'/,
    },
    "malformed JSON": {
      method: "POST",
      path: "/admin/seller-api/products",
      headers: {
        "x-seller-api-key": "demo-seller-key",
        "idempotency-key": "7c0e9a52-3f1b-4d8e-9a61-2b5f0c4d8e18",
        ...JSON_TYPE,
      },
      body: "{",
      names: /JSON/,
    },
    "unknown path": {
      method: "GET",
      path: "/admin/seller-api/nothing",
      headers: {},
      names: /\/admin\/seller-api\/nothing/,
    },
    "oversized body": {
      method: "POST",
      path: "/admin/seller-api/products",
      headers: {
        "x-seller-api-key": "demo-seller-key",
        "idempotency-key": "7c0e9a52-3f1b-4d8e-9a61-2b5f0c4d8e19",
        ...JSON_TYPE,
      },
      body: `{"title":"${OVER_LIMIT}"}`,
      names: TOO_LARGE,
    },
  },
  pay: {
    "wrong method": { method: "GET", path: "/api/balance/", headers: {}, names: /GET .*\/api\/balance\// },
    "no credential": {
      method: "POST",
      path: "/api/balance/",
      headers: JSON_TYPE,
      body: PAY_BODY,
      names: /Authorization/,
    },
    "wrong credential": {
      method: "POST",
      path: "/api/balance/",
      headers: { ...SIGNED, ...JSON_TYPE },
      body: PAY_BODY,
      names: /signature/i,
    },
    "missing field": {
      method: "POST",
      path: "/api/balance/",
      headers: { ...SIGNED, ...JSON_TYPE },
      body: '{"nonce":1}',
      names: /'shop_id'/,
    },
    "malformed JSON": {
      method: "POST",
      path: "/api/balance/",
      headers: { ...SIGNED, ...JSON_TYPE },
      body: "{",
      names: /JSON/,
    },
    "unknown path": {
      method: "POST",
      path: "/api/nothing/",
      headers: JSON_TYPE,
      body: "{}",
      names: /\/api\/nothing\//,
    },
    "oversized body": {
      method: "POST",
      path: "/api/balance/",
      headers: { ...SIGNED, ...JSON_TYPE },
      body: `{"shop_id":"3561","nonce":1,"pad":"${OVER_LIMIT}"}`,
      names: TOO_LARGE,
    },
  },
  identity: {
    "wrong method": { method: "GET", path: TOKEN_PATH, headers: {}, names: /GET \/api\/login/ },
    // Without a token both answer 401 with a Bearer challenge; the mock's is RFC 6750 §3.1's bare one, without a body.
    "wrong credential": {
      method: "POST",
      path: TOKEN_PATH,
      headers: FORM_TYPE,
      body: `grant_type=authorization_code&code=x&redirect_uri=http://127.0.0.1:5173/callback&client_id=demo-app&client_secret=no&code_verifier=${VERIFIER}`,
      names: /client/,
    },
    "missing field": {
      method: "POST",
      path: TOKEN_PATH,
      headers: FORM_TYPE,
      body: "grant_type=authorization_code&client_id=demo-app&client_secret=demo-app-secret",
      names: /'code'/,
    },
    "unknown path": { method: "GET", path: "/api/nothing", headers: {}, names: /\/api\/nothing/ },
    "oversized body": {
      method: "POST",
      path: TOKEN_PATH,
      headers: FORM_TYPE,
      body: `grant_type=authorization_code&client_id=demo-app&client_secret=demo-app-secret&code=${OVER_LIMIT}`,
      names: TOO_LARGE,
    },
  },
};

const MOCK_PORT = testPort(4180);
let mocks: RunningMocks;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [mocks, sandbox] = await Promise.all([
    startMocks({ ports: Object.fromEntries(API_NAMES.map((api, i) => [api, MOCK_PORT + i])) }),
    startSandbox({ ports: Object.fromEntries(API_NAMES.map((api) => [api, 0])) }),
  ]);
});

afterAll(async () => {
  await Promise.all([mocks?.stop(), sandbox?.stop()]);
});

async function send(base: string, request: BadRequest, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: { ...request.headers, ...headers },
    body: request.body,
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    json: JSON.parse(text) as object,
  };
}

/** The status the contract implies for each refusal of this request. */
function expectedStatus(api: ApiName, which: Case, request: BadRequest): number | undefined {
  if (which === "no credential") return 401;
  if (which === "unknown path") return 404;
  if (which === "malformed JSON") return 400;
  if (which === "oversized body") return 413;
  if (which === "wrong method" || which === "malformed POST on a GET-only path") return 405;
  if (which === "missing field")
    return invalidRequestStatus(loadContract(api).route(request.method, request.path)!.operation);
  return undefined; // a wrong credential: the sandbox's status, which the mock is then asked for
}

const rows = API_NAMES.flatMap((api) =>
  Object.entries(CASES[api]).map(([which, request]) => [api, which as Case, request] as const),
);

describe("the mock and the sandbox refuse the same bad request alike", () => {
  it("covers every API with at least three refusals, and each refusal on at least three APIs", () => {
    for (const api of API_NAMES) expect(Object.keys(CASES[api]).length, api).toBeGreaterThanOrEqual(3);
    const cases = [
      "no credential",
      "wrong credential",
      "missing field",
      "malformed JSON",
      "unknown path",
      "oversized body",
    ];
    for (const which of cases) expect(rows.filter((row) => row[1] === which).length, which).toBeGreaterThanOrEqual(2);
  });

  it.each(rows)("%s, %s", async (api, which, request) => {
    const fromSandbox = await send(sandbox.urls[api], request);
    const status = expectedStatus(api, which, request) ?? fromSandbox.status;
    const prefer: Record<string, string> = which === "wrong credential" ? { prefer: `code=${status}` } : {};
    const mockUrl = mocks.mocks.find((mock) => mock.api === api)!.url;
    const fromMock = await send(mockUrl, request, prefer);
    const shown = JSON.stringify({ mock: fromMock, sandbox: fromSandbox });
    expect(fromSandbox.status, shown).toBe(status);
    expect(fromMock.status, shown).toBe(status);
    for (const answer of [fromMock, fromSandbox]) expect(answer.type, shown).toMatch(/^application\/json/);
    expect(Object.keys(fromSandbox.json).sort(), shown).toEqual(Object.keys(fromMock.json).sort());
    expect(JSON.stringify(fromSandbox.json), `the sandbox names what is wrong: ${shown}`).toMatch(request.names);
    if (which !== "wrong credential")
      expect(JSON.stringify(fromMock.json), `the mock names what is wrong: ${shown}`).toMatch(request.names);
  });
});
