// What Prism answers on its own (a body that is not JSON, a path or method the contract does not have, a `Prefer`
// naming an example that does not exist) comes back in the API's own error envelope, as a refusal by the contract
// does: the body validates against an error response the contract documents, and its message says what was wrong.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLinksClient, LinksApiError } from "../../clients/links.js";
import { type ApiName, loadContract, type OperationInfo, responseKeyFor } from "../../lib/contract/index.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { testPort } from "../support/ports.js";

const PORTS = { identity: testPort(4160), links: testPort(4161), catalog: testPort(4162), pay: testPort(4163) };
const url = (api: ApiName) => `http://127.0.0.1:${PORTS[api]}`;
const CREDENTIALS = { Authorization: "Bearer test-key", "x-seller-api-key": "test-seller-key" };
let mocks: RunningMocks;

beforeAll(async () => {
  mocks = await startMocks({ ports: PORTS });
});

afterAll(async () => {
  await mocks?.stop();
});

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function call(
  api: ApiName,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const response = await fetch(`${url(api)}${path}`, {
    method,
    headers: { ...CREDENTIALS, ...init.headers },
    body: init.body,
  });
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** Whether `body` is one of the JSON error bodies the contract documents (of `operations` for `status`, else any). */
function documentedError(api: ApiName, status: number, body: unknown, operations?: readonly OperationInfo[]): boolean {
  const contract = loadContract(api);
  return (operations ?? contract.operations()).some((op) => {
    const keys = operations
      ? [responseKeyFor(op, status)]
      : Object.keys(op.operation.responses ?? {}).filter((k) => k === "default" || Number(k) >= 400);
    return keys.some((key) => {
      if (key === undefined || !contract.response(op, key)?.content?.["application/json"]?.schema) return false;
      return contract.validate(`${op.pointer}/responses/${key}/content/application~1json/schema`, body).valid;
    });
  });
}

/** The text of the envelope's message, whichever field carries it. */
const messageOf = (body: Record<string, unknown>) =>
  Object.values(body)
    .filter((value) => typeof value === "string" && /\s/.test(value))
    .join(" ");

describe("a body that is not JSON gets the operation's error envelope", () => {
  const jsonOperations = [
    ["links", "addCampaign"],
    ["pay", "getBalance"],
    ["catalog", "createProduct"],
  ] as const;
  it.each(jsonOperations)("%s %s", async (api, operationId) => {
    const op = loadContract(api).operation(operationId as never);
    const answer = await call(api, op.method, op.path, { headers: { "Content-Type": "application/json" }, body: "{" });
    expect(answer.status).toBe(400);
    expect(messageOf(answer.body)).toMatch(/^the request body is not valid JSON/);
    expect(documentedError(api, 400, answer.body, [op]), JSON.stringify(answer.body)).toBe(true);
  });

  it("identity: the token endpoint answers RFC 6749 §5.2 invalid_request", async () => {
    const op = loadContract("identity").operation("exchangeToken");
    const answer = await call("identity", op.method, op.path, {
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringMatching(/^the request body is not valid JSON/),
    });
    expect(documentedError("identity", 400, answer.body, [op])).toBe(true);
  });

  it("links: the client's LinksApiError carries the reason", async () => {
    // The typed client sends valid JSON; a fetch that spoils the body stands for a hand-written request.
    const spoiling = (input: Request) => fetch(new Request(input, { body: "{", duplex: "half" } as RequestInit));
    const links = createLinksClient({
      baseUrl: url("links"),
      apiKey: "test-links-key",
      rateLimit: false,
      fetch: spoiling,
    });
    const error = await links.POST("/api/campaign/add", { body: { name: "Spring sale" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinksApiError);
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining("not valid JSON") });
  });
});

describe("a path or method the contract does not have gets the API's error envelope", () => {
  it.each(["identity", "links", "catalog", "pay"] as const)(
    "%s: an unknown path is a 404 naming the request",
    async (api) => {
      const answer = await call(api, "GET", "/api/nope");
      expect(answer.status).toBe(404);
      expect(messageOf(answer.body)).toBe(`no operation GET /api/nope in the ${api} contract`);
      expect(documentedError(api, 404, answer.body), JSON.stringify(answer.body)).toBe(true);
    },
  );

  it("identity: an unknown path is an OAuth error (invalid_request)", async () => {
    const answer = await call("identity", "GET", "/api/nope");
    expect(answer.body.error).toBe("invalid_request");
  });

  it("links: a wrong method is a 405 with Allow and the envelope of the operations at that path", async () => {
    const getAccount = loadContract("links").operation("getAccount");
    const answer = await call("links", "DELETE", getAccount.path);
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET");
    expect(answer.body).toEqual({
      error: 1,
      message: `no operation DELETE ${getAccount.path} in the links contract; ${getAccount.path} has GET`,
    });
    expect(documentedError("links", 405, answer.body, [getAccount])).toBe(true);
  });
});

describe("Prefer naming an example the response does not have", () => {
  const getBalance = loadContract("pay").operation("getBalance");
  const balanceRequest = {
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ shop_id: "3561", nonce: 1 }),
  };
  const names = (status: string) =>
    loadContract("pay")
      .responseExamples("getBalance", status)
      .map((example) => example.name);

  it("a misspelt error example is a 404 listing the examples of that status, not a 500", async () => {
    const answer = await call("pay", getBalance.method, getBalance.path, {
      headers: { ...balanceRequest.headers, Prefer: "code=400, example=nosuch" },
      body: balanceRequest.body,
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      type: "error",
      desc: `no example nosuch in the default response of getBalance (POST ${getBalance.path}); its examples: ${names("default").join(", ")}`,
    });
  });

  it("a misspelt success example is a 404 listing the success (200) examples", async () => {
    const answer = await call("pay", getBalance.method, getBalance.path, {
      headers: { ...balanceRequest.headers, Prefer: "example=nosuch" },
      body: balanceRequest.body,
    });
    expect(answer.status).toBe(404);
    expect(answer.body.desc).toBe(
      `no example nosuch in the 200 response of getBalance (POST ${getBalance.path}); its examples: ${names("200").join(", ")}`,
    );
  });

  it("an error example asked for without its status says which status has it", async () => {
    const [errorExample] = names("default");
    const answer = await call("pay", getBalance.method, getBalance.path, {
      headers: { ...balanceRequest.headers, Prefer: `example=${errorExample}` },
      body: balanceRequest.body,
    });
    expect(answer.status).toBe(404);
    expect(answer.body.desc).toContain(
      `${errorExample} is an example of the default response: ask for it with code=<status>, example=${errorExample}`,
    );
  });

  it("a response without a body does not ignore the name (identity userinfo 401)", async () => {
    const getUserInfo = loadContract("identity").operation("getUserInfo");
    const answer = await call("identity", getUserInfo.method, getUserInfo.path, {
      headers: { Prefer: "code=401, example=nosuch" },
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("no example nosuch in the 401 response of getUserInfo"),
    });
  });
});
