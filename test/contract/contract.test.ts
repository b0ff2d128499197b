// lib/contract against the real bundles: operations, routing, parameters, request/response checks, examples.
import { describe, expect, it } from "vitest";
import {
  API_NAMES,
  documentedMediaType,
  HTTP_METHODS,
  invalidRequestStatus,
  joinPointer,
  loadBundle,
  loadContract,
  type HttpRequest,
  responseKeyFor,
} from "../../lib/contract/index.js";

function request(method: string, url: string, body?: unknown, contentType = "application/json"): HttpRequest {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const headers = new Headers(body === undefined ? {} : { "content-type": contentType });
  return { method, url: new URL(url, "http://sandbox.test"), headers, body: new TextEncoder().encode(text) };
}

describe("loadContract", () => {
  it("is built once per API and lists every operation of the bundle by operationId", () => {
    for (const api of API_NAMES) {
      const contract = loadContract(api);
      expect(loadContract(api)).toBe(contract);
      const bundle = loadBundle(api);
      const declared = Object.values(bundle.paths ?? {}).flatMap((item) =>
        HTTP_METHODS.flatMap((method) => item[method]?.operationId ?? []),
      );
      expect(
        contract
          .operations()
          .filter((op) => !op.webhook)
          .map((op) => op.operationId)
          .sort(),
      ).toEqual(declared.sort());
    }
  });

  it("finds an operation by operationId with its method, path, pointer and resolved parameters", () => {
    const op = loadContract("links").operation("updateDomain");
    expect(op).toMatchObject({
      method: "put",
      path: "/api/domain/{id}/update",
      pointer: "/paths/~1api~1domain~1{id}~1update/put",
      webhook: false,
    });
    expect(op.parameters.map(({ parameter }) => [parameter.in, parameter.name])).toEqual([["path", "id"]]);
    expect(() => loadContract("links").findOperation("noSuchOperation")).not.toThrow();
    expect(loadContract("links").findOperation("noSuchOperation")).toBeUndefined();
  });

  it("lists webhooks after path operations", () => {
    const ops = loadContract("catalog").operations();
    const firstWebhook = ops.findIndex((op) => op.webhook);
    expect(firstWebhook).toBeGreaterThan(0);
    expect(ops.slice(firstWebhook).every((op) => op.webhook)).toBe(true);
  });
});

describe("route", () => {
  const links = loadContract("links");

  it("matches a templated path and decodes its parameters", () => {
    const match = links.route("DELETE", "/api/campaign/7%20x/delete");
    expect(match?.operation.operationId).toBe("deleteCampaign");
    expect(match?.pathParams).toEqual({ id: "7 x" });
    expect(links.route("post", "/api/campaign/1/assign/2")?.pathParams).toEqual({ campaignid: "1", linkid: "2" });
  });

  it("tells an unknown path (no methods) from a wrong method (the allowed ones)", () => {
    expect(links.route("GET", "/api/nowhere")).toBeUndefined();
    expect(links.allowedMethods("/api/nowhere")).toEqual([]);
    expect(links.route("POST", "/api/domains")).toBeUndefined();
    expect(links.allowedMethods("/api/domains")).toEqual(["get"]);
  });

  it("routes every identity operation by its own path (paths come from the bundle, not from here)", () => {
    const identity = loadContract("identity");
    for (const op of identity.operations())
      expect(identity.route(op.method, op.path)?.operation.operationId).toBe(op.operationId);
  });
});

describe("checkRequest", () => {
  const links = loadContract("links");
  const check = (method: string, url: string, body?: unknown, contentType?: string) => {
    const req = request(method, url, body, contentType);
    const match = links.route(method, req.url.pathname);
    if (!match) throw new Error(`no route for ${method} ${url}`);
    return links.checkRequest(match, req);
  };

  it("coerces query and path parameters to their schema types", () => {
    expect(check("GET", "/api/domains?limit=5&page=2")).toMatchObject({ ok: true, params: { limit: 5, page: 2 } });
    expect(check("PUT", "/api/domain/101/update", {})).toMatchObject({ ok: true, params: { id: 101 } });
  });

  it("refuses parameters that do not fit, naming them", () => {
    const result = check("GET", "/api/domains?limit=abc");
    // The status Prism gives an invalid request (422, else 400, from the documented responses): the mock's.
    expect(result).toMatchObject({
      ok: false,
      status: invalidRequestStatus(loadContract("links").operation("listDomains")),
    });
    expect(!result.ok && result.message).toMatch(/query parameter limit/);
  });

  it("refuses a body of the wrong media type (415), broken JSON (400) and an invalid body (invalidRequestStatus)", () => {
    expect(check("POST", "/api/domain/add", "domain=x", "text/plain")).toMatchObject({ ok: false, status: 415 });
    expect(check("POST", "/api/domain/add", "{", "application/json")).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringMatching(/not valid JSON/),
    });
    const invalid = check("POST", "/api/domain/add", { domain: 42 });
    const status = invalidRequestStatus(loadContract("links").operation("addDomain"));
    expect(invalid).toMatchObject({ ok: false, status, message: expect.stringMatching(/^body\/domain /) });
    expect(check("POST", "/api/domain/add", { domain: "https://go.example.com" })).toMatchObject({
      ok: true,
      body: { domain: "https://go.example.com" },
      mediaType: "application/json",
    });
  });

  it("parses and validates form bodies against the body schema", () => {
    const identity = loadContract("identity");
    const op = identity.operation("exchangeToken");
    const media = Object.keys(op.requestBody?.content ?? {});
    expect(media).toContain("application/x-www-form-urlencoded");
    const [example] = identity.requestExamples("exchangeToken", "application/x-www-form-urlencoded");
    const fields = example!.value as Record<string, string>;
    const form = new URLSearchParams(fields).toString();
    const result = identity.checkRequest(
      { operation: op, pathParams: {} },
      request("POST", op.path, form, "application/x-www-form-urlencoded"),
    );
    expect(result).toMatchObject({ ok: true, body: fields });
    const withoutGrant = Object.fromEntries(Object.entries(fields).filter(([name]) => name !== "grant_type"));
    const refused = identity.checkRequest(
      { operation: op, pathParams: {} },
      request("POST", op.path, new URLSearchParams(withoutGrant).toString(), "application/x-www-form-urlencoded"),
    );
    expect(refused).toMatchObject({ ok: false, status: 400 });
  });
});

describe("checkResponse", () => {
  const links = loadContract("links");
  const op = links.operation("listDomains");
  const example = links.responseExample("listDomains", "twoDomains");

  it("accepts the contract's own example and refuses a changed one", () => {
    expect(
      links.checkResponse(op, { status: 200, contentType: "application/json; charset=utf-8", body: example }),
    ).toEqual([]);
    const broken = structuredClone(example) as { data: { domains: Array<{ id: unknown }> } };
    broken.data.domains[0]!.id = "one";
    expect(links.checkResponse(op, { status: 200, contentType: "application/json", body: broken }).join()).toMatch(
      /body\/data\/domains\/0\/id/,
    );
  });

  it("reports an undocumented media type and falls back to `default` for an undocumented status", () => {
    expect(links.checkResponse(op, { status: 200, contentType: "text/html", body: "<p>" }).join()).toMatch(
      /content type "text\/html" is not one of application\/json/,
    );
    expect(
      links.checkResponse(op, { status: 418, contentType: "application/json", body: { error: 1, message: "teapot" } }),
    ).toEqual([]);
  });
});

describe("the steps of checkResponse, which the conformance runner judges with", () => {
  const links = loadContract("links");
  const op = links.operation("listDomains");
  const example = links.responseExample("listDomains", "twoDomains");
  // Not fetch's Headers, which trims values itself: recorded traffic (HAR, a proxy) may keep the spaces.
  const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

  it("responseKeyFor: the exact code, else the range, else a same-class code the caller accepts, else default", () => {
    expect(responseKeyFor(op, 200)).toBe("200");
    expect(responseKeyFor(op, 201)).toBe("default");
    expect(responseKeyFor(op, 201, (code) => code === "200")).toBe("200");
    expect(responseKeyFor(op, 404, () => true)).toBe("default");
  });

  it("documentedMediaType: the same type (parameters and case aside), else a range that covers it", () => {
    const content = { "application/json": {}, "text/*": {} };
    expect(documentedMediaType(content, "Application/JSON; charset=utf-8")).toBe("application/json");
    expect(documentedMediaType(content, "text/plain")).toBe("text/*");
    expect(documentedMediaType(content, "image/png")).toBeUndefined();
    expect(documentedMediaType({ "*/*": {} }, "image/png")).toBe("*/*");
    expect(documentedMediaType(content, undefined)).toBeUndefined();
  });

  it("checks the documented headers: required ones present, values trimmed and valid, the value named", () => {
    const response = (values: Record<string, string>) =>
      links.checkResponse(op, {
        status: 200,
        headers: headers(values),
        contentType: "application/json",
        body: example,
      });
    const valid = { "X-RateLimit-Limit": " 30 ", "X-RateLimit-Remaining": "29", "X-RateLimit-Reset": "1767225600" };
    expect(response(valid)).toEqual([]);
    expect(response({ ...valid, "X-RateLimit-Limit": "thirty" })).toEqual([
      'header X-RateLimit-Limit "thirty" must be integer',
    ]);
    const { "X-RateLimit-Remaining": _left, ...withoutRemaining } = valid;
    expect(response(withoutRemaining)).toEqual(["required header X-RateLimit-Remaining is missing"]);
  });
});

describe("examples and refs", () => {
  it("returns copies of named examples, so editing one never edits the bundle", () => {
    const links = loadContract("links");
    const first = links.responseExample("getAccount", "demoAccount") as { data: { email: string } };
    first.data.email = "changed@example.com";
    expect((links.responseExample("getAccount", "demoAccount") as { data: { email: string } }).data.email).not.toBe(
      "changed@example.com",
    );
    expect(() => links.responseExample("getAccount", "noSuchExample")).toThrow(/no example noSuchExample/);
  });

  it("follows $refs to the canonical pointer and validates there", () => {
    const links = loadContract("links");
    const op = links.operation("listDomains");
    const limit = op.parameters.find(({ parameter }) => parameter.name === "limit")!;
    expect(links.canonicalPointer(limit.pointer)).toBe("/components/parameters/limit");
    expect(links.validate(joinPointer(limit.pointer, "schema"), 5).valid).toBe(true);
    expect(links.validator(joinPointer(limit.pointer, "schema"))).toBe(
      links.validator("/components/parameters/limit/schema"),
    );
  });
});
