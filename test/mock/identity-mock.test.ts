// The identity mock as an OpenID Connect client and a curl user meet it on a port of their choosing: discovery
// names the mock's own address, a refused token request is an RFC 6749 §5.2 error with one clear reason, and the
// userinfo challenge tells a missing token from an expired one (RFC 6750 §3.1).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIdentityClient } from "../../clients/identity.js";
import { loadContract } from "../../lib/contract/index.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { testPort } from "../support/ports.js";

const PORT = testPort(4165);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const contract = loadContract("identity");
const discovery = contract.operation("getOpenIdConfiguration");
const token = contract.operation("exchangeToken");
const userinfo = contract.operation("getUserInfo");
let mocks: RunningMocks;

beforeAll(async () => {
  mocks = await startMocks({ apis: ["identity"], ports: { identity: PORT } });
});

afterAll(async () => {
  await mocks?.stop();
});

describe("discovery names the mock's own address", () => {
  const clientOptions = {
    issuer: ORIGIN,
    clientId: "demo-app",
    clientSecret: "test-client-secret",
    redirectUri: "http://127.0.0.1:5173/callback",
    allowInsecureRequests: true,
  };

  it("the real identity client discovers a mock on a non-default port and uses its endpoints", async () => {
    const identity = await createIdentityClient(clientOptions);
    const request = await identity.createAuthorizationRequest(["openid"]);
    expect(`${request.url.origin}${request.url.pathname}`).toBe(`${ORIGIN}${contract.operation("authorize").path}`);
    // The userinfo call goes to the endpoint discovery named: this mock.
    const claims = await identity.userInfo("test-access-token", "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91");
    expect(claims.iss).toBe(ORIGIN);
  });

  it("every URL of the example on the example server's origin moves to the origin the request reached", async () => {
    const example = contract.responseExample("getOpenIdConfiguration", "mockConfiguration") as Record<string, unknown>;
    const exampleOrigin = new URL(contract.document.servers!.find((s) => !s.url.includes("{"))!.url).origin;
    const viaLocalhost = `http://localhost:${PORT}`;
    const served = (await (await fetch(`${viaLocalhost}${discovery.path}`)).json()) as Record<string, unknown>;
    const expected = Object.fromEntries(
      Object.entries(example).map(([name, value]) => [
        name,
        typeof value === "string" ? value.replace(exampleOrigin, viaLocalhost) : value,
      ]),
    );
    expect(served).toEqual(expected);
    expect(served.issuer).toBe(viaLocalhost);
  });
});

describe("a refused token request is an RFC 6749 §5.2 error with one clear reason", () => {
  const post = async (body: string, contentType = "application/x-www-form-urlencoded") => {
    const response = await fetch(`${ORIGIN}${token.path}`, {
      method: "POST",
      headers: { "Content-Type": contentType },
      body,
    });
    return { status: response.status, body: (await response.json()) as { error: string; error_description: string } };
  };
  // The contract's own example of each code: the mock must answer with the one whose code fits.
  const exampleWithCode = (code: string) =>
    contract
      .responseExamples("exchangeToken", "400")
      .find((example) => (example.value as { error: string }).error === code);

  it("missing fields of the chosen grant: invalid_request naming only that grant's fields, once each", async () => {
    expect(exampleWithCode("invalid_request")).toBeDefined();
    const answer = await post("grant_type=authorization_code");
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_request");
    const description = answer.body.error_description;
    for (const field of ["code", "redirect_uri", "client_id", "client_secret"])
      expect(description.split(`'${field}'`)).toHaveLength(2);
    expect(description).not.toMatch(/refresh_token|oneOf|constant/);
  });

  it("a JSON body: invalid_request", async () => {
    const answer = await post(JSON.stringify({ grant_type: "authorization_code" }), "application/json");
    expect(answer).toMatchObject({
      status: 400,
      body: {
        error: "invalid_request",
        error_description: expect.stringContaining("application/x-www-form-urlencoded"),
      },
    });
  });

  it("an unknown grant_type: unsupported_grant_type, naming the grant types there are", async () => {
    expect(exampleWithCode("unsupported_grant_type")).toBeDefined();
    const answer = await post("grant_type=password&username=alice&client_id=demo-app&client_secret=s");
    expect(answer).toMatchObject({ status: 400, body: { error: "unsupported_grant_type" } });
    expect(answer.body.error_description).toMatch(
      /grant_type must be equal to one of the allowed values: authorization_code, refresh_token$/,
    );
  });

  it("no grant_type: invalid_request saying so", async () => {
    const answer = await post("client_id=demo-app&client_secret=s");
    expect(answer.body).toEqual({
      error: "invalid_request",
      error_description: "Request body must have required property 'grant_type'",
    });
  });
});

describe("the userinfo challenge (RFC 6750 §3.1)", () => {
  const challenge = async (headers: Record<string, string>) => {
    const response = await fetch(`${ORIGIN}${userinfo.path}`, { headers });
    return { status: response.status, challenge: response.headers.get("www-authenticate") };
  };

  it("a request without a token gets a bare Bearer challenge, no error code", async () => {
    expect(await challenge({})).toEqual({ status: 401, challenge: "Bearer" });
  });

  it("the expired-token challenge is still there for Prefer", async () => {
    const expired = await challenge({
      Authorization: "Bearer test-access-token",
      Prefer: "code=401, example=invalidToken",
    });
    expect(expired.status).toBe(401);
    expect(expired.challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]*expired[^"]*"$/);
  });
});
