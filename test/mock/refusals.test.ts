// A request the contract refuses, sent through our real clients to the Prism mocks: the error the caller gets names
// the violation (what Prism's `sl-violations` header says), in each API's own error envelope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogApiError, createCatalogClient } from "../../clients/catalog.js";
import { createIdentityClient, IdentityApiError } from "../../clients/identity.js";
import { createLinksClient, LinksApiError } from "../../clients/links.js";
import { createPayClient, PayApiError } from "../../clients/pay.js";
import { type ApiName, describeErrors, responseSchemaPointer, validateAt } from "../support/bundle-nodes.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { testPort } from "../support/ports.js";

const PORTS = { identity: testPort(4140), links: testPort(4141), catalog: testPort(4142), pay: testPort(4143) };
const url = (api: ApiName) => `http://127.0.0.1:${PORTS[api]}`;
let mocks: RunningMocks;

// Every response the clients see, so that a test can compare the body with the `sl-violations` header.
const seen: Response[] = [];
const recordingFetch = async (input: Request | string, init?: RequestInit) => {
  const response = await fetch(input, init);
  seen.push(response.clone());
  return response;
};
function lastViolations(): string[] {
  const response = seen.at(-1)!;
  return (JSON.parse(response.headers.get("sl-violations") ?? "[]") as Array<{ message: string }>).map(
    (v) => v.message,
  );
}

beforeAll(async () => {
  mocks = await startMocks({ ports: PORTS });
});

afterAll(async () => {
  await mocks?.stop();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the call succeeded"),
    (error: unknown) => error,
  );
}

describe("a refused request names its violation in the client's error", () => {
  it("links: LinksApiError carries the violation as the envelope's message", async () => {
    const links = createLinksClient({
      baseUrl: url("links"),
      apiKey: "test-links-key",
      rateLimit: false,
      fetch: recordingFetch,
    });
    const error = await rejection(links.POST("/api/domain/add", { body: {} as { domain: string } }));
    expect(error).toBeInstanceOf(LinksApiError);
    const { body, message, status } = error as LinksApiError;
    expect(status).toBe(422);
    expect(lastViolations()).toEqual(["Request body must have required property 'domain'"]);
    expect(body).toEqual({ error: 1, message: "Request body must have required property 'domain'" });
    expect(message).toContain("required property 'domain'");
  });

  it("links: an error example asked for by status and name is served as written, even for a refused request", async () => {
    const links = createLinksClient({
      baseUrl: url("links"),
      apiKey: "test-links-key",
      rateLimit: false,
      fetch: recordingFetch,
    });
    const call = links.POST("/api/domain/add", {
      body: {} as { domain: string },
      headers: { Prefer: "code=422, example=expiredApiKey" },
    });
    const error = await rejection(call);
    expect(error).toMatchObject({ status: 422, body: { error: 1, message: "The API key has expired." } });
    expect(lastViolations()).toEqual(["Request body must have required property 'domain'"]);
  });

  it("pay: PayApiError carries the violation as desc", async () => {
    const pay = createPayClient({
      baseUrl: url("pay"),
      shopId: "1042",
      apiKey: "test-pay-secret",
      fetch: recordingFetch,
    });
    const error = await rejection(pay.POST("/api/orders/", { body: { page: 0 } }));
    expect(error).toBeInstanceOf(PayApiError);
    const { desc, type, message } = error as PayApiError;
    expect(type).toBe("error");
    expect(lastViolations()).toEqual(["Request body property page must be >= 1"]);
    expect(desc).toBe("Request body property page must be >= 1");
    expect(message).toContain("page must be >= 1");
  });

  it("catalog: CatalogApiError carries the violation", async () => {
    const catalog = createCatalogClient({ baseUrl: url("catalog"), apiKey: "test-seller-key", fetch: recordingFetch });
    const body = {
      delivery_type: "digital_instant",
      category_id: "pcat_01HV6Q8Z3T",
      status: "published",
      variants: [],
    };
    const error = await rejection(catalog.POST("/admin/seller-api/products", { body: body as never }));
    expect(error).toBeInstanceOf(CatalogApiError);
    const { status, body: errorBody, message } = error as CatalogApiError;
    expect(status).toBe(422);
    expect(lastViolations()).toContain("Request body must have required property 'title'");
    expect(errorBody).toEqual({ error: lastViolations().join("; ") });
    expect(message).toContain("required property 'title'");
    const result = validateAt("catalog", responseSchemaPointer("catalog", "createProduct", "default"), errorBody);
    expect(result.valid, describeErrors(result.errors)).toBe(true);
  });

  it("identity: the token error's error_description carries the violation of the grant sent, as invalid_request", async () => {
    // Discovery names the mock's own address, so the client talks to this test's mock directly.
    const identity = await createIdentityClient({
      issuer: url("identity"),
      clientId: "demo-app",
      clientSecret: "test-client-secret",
      redirectUri: "http://127.0.0.1:5173/callback",
      allowInsecureRequests: true,
      fetch: recordingFetch,
    });
    const callback = "http://127.0.0.1:5173/callback?code=example-code&state=s1";
    // A code_verifier shorter than RFC 7636's 43 characters.
    const error = await rejection(
      identity.handleCallback(callback, { state: "s1", nonce: "n-0S6_WzA2Mj", codeVerifier: "too-short" }),
    );
    // Prism reports both grants of the oneOf; the reason is the authorization_code grant's, the one sent.
    const reasons = lastViolations().filter((message) => message.includes("code_verifier"));
    expect(reasons.length).toBeGreaterThan(0);
    // A malformed parameter is invalid_request (RFC 6749 §5.2); RFC 6749 §5.2 keeps `"` out of error_description.
    expect(error).toBeInstanceOf(IdentityApiError);
    expect(error).toMatchObject({ code: "invalid_request", description: reasons.join("; ").replaceAll('"', "'") });
  });
});
