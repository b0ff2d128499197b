// The identity mock as an OpenID Connect client and a curl user meet it on a port of their choosing: discovery
// names the mock's own address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIdentityClient } from "../../clients/identity.js";
import { loadContract } from "../../lib/contract/index.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { testPort } from "../support/ports.js";

const PORT = testPort(4165);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const contract = loadContract("identity");
const discovery = contract.operation("getOpenIdConfiguration");
let mocks: RunningMocks;

beforeAll(async () => {
  mocks = await startMocks({ apis: ["identity"], ports: { identity: PORT } });
});

afterAll(async () => {
  await mocks?.stop();
});

describe("discovery names the mock's own address", () => {
  const clientOptions = { issuer: ORIGIN, clientId: "demo-app", clientSecret: "test-client-secret", redirectUri: "http://127.0.0.1:5173/callback", allowInsecureRequests: true };

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
    const exampleOrigin = new URL(contract.document.servers![0]!.url).origin;
    const viaLocalhost = `http://localhost:${PORT}`;
    const served = (await (await fetch(`${viaLocalhost}${discovery.path}`)).json()) as Record<string, unknown>;
    const expected = Object.fromEntries(Object.entries(example).map(([name, value]) => [name, typeof value === "string" ? value.replace(exampleOrigin, viaLocalhost) : value]));
    expect(served).toEqual(expected);
    expect(served.issuer).toBe(viaLocalhost);
  });
});
