// The checks of the stateful sequences and probes (conformance/judge/sequence-checks.ts, probe-checks.ts, echoed.ts)
// judge the exchanges they are given, without sending: a pass for what keeps the contract's word, a failure that says
// why for what breaks it, with success and refusal as the contract defines them (links' 200 with an error envelope is
// a refusal). The fault servers prove the same checks end to end (faults.test.ts).
import { describe, expect, it } from "vitest";
import type { ResourceKind } from "../../conformance/apis.js";
import { operationOf } from "../../conformance/contract/lookup.js";
import { allowListsMethods } from "../../conformance/judge/allow-header.js";
import { createdValuesEchoed } from "../../conformance/judge/echoed.js";
import { methodRefused, scopesEnforced } from "../../conformance/judge/probe-checks.js";
import {
  createdIsListed,
  deletedDoesNotAnswer,
  deletedIsNotListed,
  nonceUsedElsewhereIsRefused,
  repeatIsIdempotent,
  replayIsRefused,
  updateIsVisible,
} from "../../conformance/judge/sequence-checks.js";
import { operationModel } from "../../conformance/plan/cases.js";
import type { Exchange } from "../../conformance/model/exchange.js";
import type { ApiName } from "../../lib/contract/index.js";

const model = (api: ApiName, operationId: string) => operationModel(operationOf(api, operationId));

function exchange(status: number | undefined, json: unknown = {}, body?: unknown): Exchange {
  const text = JSON.stringify(json);
  return {
    request: {
      method: "POST",
      url: "http://127.0.0.1:1/x",
      headers: {},
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    },
    ...(status === undefined
      ? { error: "ECONNRESET" }
      : { response: { status, headers: {}, text, json, isJson: true, setCookies: [] } }),
    durationMs: 1,
    receivedAt: 0,
  };
}

const domain: ResourceKind = {
  name: "domain",
  create: "addDomain",
  id: "/data/id",
  list: { operationId: "listDomains", items: "/data/domains", itemId: "/id" },
  update: { operationId: "updateDomain", pathParameter: "id" },
  delete: { operationId: "deleteDomain", pathParameter: "id" },
};

describe("the lifecycle's checks", () => {
  it("ensure_resource_availability fails when the new resource is not in its list", () => {
    expect(createdIsListed(domain, 7, "found", exchange(200)).outcome).toBe("pass");
    const absent = createdIsListed(domain, 7, "absent", exchange(200));
    expect(absent).toMatchObject({ check: "ensure_resource_availability", operationId: "listDomains" });
    expect(absent.message).toBe("the domain 7 created by addDomain is not in listDomains");
  });

  it("use_after_free fails when a deleted resource still answers with success, as the contract defines it", () => {
    const label = "update the deleted domain 7";
    expect(deletedDoesNotAnswer("links", domain, 7, "updateDomain", exchange(404), label).outcome).toBe("pass");
    const refusedInBody = exchange(200, { error: 1, message: "Domain not found" });
    expect(deletedDoesNotAnswer("links", domain, 7, "updateDomain", refusedInBody, label).outcome).toBe("pass");
    const answered = deletedDoesNotAnswer("links", domain, 7, "updateDomain", exchange(200, { error: 0 }), label);
    expect(answered.message).toBe("the domain 7 was deleted but updateDomain still answered 200");
    expect(deletedIsNotListed(domain, 7, "absent", exchange(200)).outcome).toBe("pass");
    expect(deletedIsNotListed(domain, 7, "found", exchange(200)).message).toBe(
      "the domain 7 was deleted but is still in listDomains",
    );
  });

  it("update_visible_on_read compares only the fields the update changed", () => {
    const update = model("links", "updateDomain");
    const sent = { redirectroot: "https://new.example" };
    const label = "read the domain 7 after its update";
    const where = "listDomains after updateDomain";
    const kept = { resource: { redirectroot: "https://old.example" }, before: { redirectroot: "https://old.example" } };
    const failed = updateIsVisible(update, sent, { ...kept, where }, exchange(200), label);
    expect(failed?.message).toBe(
      'updateDomain succeeded but redirectroot was sent as "https://new.example" but listDomains after updateDomain ' +
        'shows "https://old.example"',
    );
    const shown = { resource: sent, before: kept.before, where };
    expect(updateIsVisible(update, sent, shown, exchange(200), label)?.outcome).toBe("pass");
    // The update sent what the resource already showed: no evidence either way.
    expect(
      updateIsVisible(update, sent, { resource: sent, before: sent, where }, exchange(200), label),
    ).toBeUndefined();
  });

  it("created_values_echoed follows x-echoes and skips x-not-echoed fields", () => {
    const order: ResourceKind = {
      name: "order",
      create: "createOrder",
      id: "/data/order_id",
      list: { operationId: "listOrders", items: "/data/orders", itemId: "/payment_id" },
    };
    const sent = { order_id: "conformance-1", amount: 10 };
    const listed = exchange(200);
    const renamed = createdValuesEchoed(model("pay", "createOrder"), order, sent, listed, "listOrders", {
      payment_id: "other",
    });
    expect(renamed).toMatchObject({ operationId: "listOrders", outcome: "fail" });
    expect(renamed?.message).toBe('order_id was sent as "conformance-1" but listOrders shows payment_id "other"');
    const product: ResourceKind = { name: "product", create: "createProduct", id: "/data/id" };
    const thumbnail = "https://cdn.example/a.png";
    const copied = exchange(200, { data: { id: 1, thumbnail: "https://copy.example/a.png", title: "t" } });
    const verdict = createdValuesEchoed(
      model("catalog", "createProduct"),
      product,
      { thumbnail, title: "t" },
      copied,
      "it",
    );
    expect(verdict?.outcome).toBe("pass");
  });
});

describe("idempotency and nonce replay", () => {
  it("idempotency fails on a refused repeat and on a repeat that returns another resource", () => {
    const first = exchange(200, { data: { id: 1 } });
    expect(repeatIsIdempotent("catalog", "createProduct", first, exchange(200, { data: { id: 1 } })).outcome).toBe(
      "pass",
    );
    expect(repeatIsIdempotent("catalog", "createProduct", first, exchange(409)).message).toBe(
      "the repeat with the same Idempotency-Key was answered 409",
    );
    expect(repeatIsIdempotent("catalog", "createProduct", first, exchange(200, { data: { id: 2 } })).message).toBe(
      'the repeat with the same Idempotency-Key returned another product: {"data":{"id":1}} then {"data":{"id":2}}',
    );
  });

  it("nonce_replay fails when a used nonce is accepted, and reproduces the first use before a reuse elsewhere", () => {
    const refusedInBody = exchange(200, { type: "error", message: "nonce already used" });
    expect(replayIsRefused("pay", "getBalance", refusedInBody, "again").outcome).toBe("pass");
    expect(replayIsRefused("pay", "getBalance", exchange(200, { type: "success" }), "again").message).toBe(
      "a request whose nonce was already used was accepted",
    );
    const first = exchange(200, { type: "success" }, { nonce: 5 });
    const reuse = exchange(200, { type: "success" }, { nonce: 5 });
    const firstUse = { operationId: "getBalance", exchange: first };
    const verdict = nonceUsedElsewhereIsRefused("pay", firstUse, "listShops", reuse, "reuse");
    expect(verdict).toMatchObject({ check: "nonce_replay", operationId: "listShops", sentBefore: first });
    expect(verdict.message).toBe("a nonce already used on getBalance was accepted on listShops");
    expect(nonceUsedElsewhereIsRefused("pay", firstUse, "listShops", exchange(400), "reuse").outcome).toBe("pass");
  });
});

describe("the probes' checks", () => {
  const probe = { operationId: "createProduct", scopes: ["products:write"], missing: ["products:write"] };

  it("scope_enforcement wants a 403 that names each missing scope", () => {
    const named = exchange(403, { error: "insufficient_scope", scope: "products:write" });
    expect(scopesEnforced("catalog", probe, named, "narrower key")?.outcome).toBe("pass");
    expect(scopesEnforced("catalog", probe, exchange(403, { error: "forbidden" }), "k")?.message).toMatch(
      /^the 403 does not name the missing scope products:write/,
    );
    expect(scopesEnforced("catalog", probe, exchange(401), "k")?.message).toBe(
      "a key without products:write was refused with status 401, not 403",
    );
    expect(scopesEnforced("catalog", probe, exchange(200), "k")?.message).toBe(
      "a key without products:write could call createProduct (status 200)",
    );
    expect(scopesEnforced("catalog", probe, exchange(undefined), "k")).toBeUndefined();
    const read = { operationId: "getShop", scopes: ["products:read"], missing: [] };
    expect(scopesEnforced("catalog", read, exchange(200), "k")?.outcome).toBe("pass");
    expect(scopesEnforced("catalog", read, exchange(403), "k")?.message).toBe(
      "a key that holds products:read was refused getShop with status 403",
    );
  });

  it("allow_header names the URL the run requested, where the 405 came from", () => {
    const without = allowListsMethods("listDomains", { method: "DELETE", documented: ["GET"] }, exchange(405), "probe");
    expect(without?.message).toBe(
      "DELETE http://127.0.0.1:1/x got 405 without an Allow header (RFC 9110 §15.5.6) (documented: GET)",
    );
    const listed = exchange(405);
    listed.response!.headers = { allow: "POST" };
    expect(allowListsMethods("listDomains", { method: "DELETE", documented: ["GET"] }, listed, "p")?.message).toBe(
      'DELETE http://127.0.0.1:1/x got 405 with Allow "POST", which leaves out GET (RFC 9110 §10.2.1)',
    );
    expect(allowListsMethods("listDomains", { method: "DELETE", documented: ["GET"] }, exchange(404), "p")).toBe(
      undefined,
    );
  });

  it("unsupported_method fails on a server error, and on a success only where the contract says it is refused", () => {
    const request = { method: "GET", path: "/orders" };
    const observed: string[] = [];
    const observe = (message: string) => observed.push(message);
    expect(methodRefused("pay", "createOrder", request, exchange(405), "GET", observe).outcome).toBe("pass");
    // Pay seed: "All operations are POST" (x-undocumented-methods-refused).
    expect(
      methodRefused("pay", "createOrder", request, exchange(200, { type: "success" }), "GET", observe).message,
    ).toMatch(/^GET \/orders succeeded with status 200, though Pay seed, Endpoints: 'All operations are POST\.'/);
    expect(methodRefused("pay", "createOrder", request, exchange(502), "GET", observe).message).toBe(
      "GET /orders was answered with the server error 502",
    );
    // Catalog: no source promises a refusal; the success is an observation.
    const getProducts = { method: "GET", path: "/admin/seller-api/products" };
    expect(methodRefused("catalog", "createProduct", getProducts, exchange(200), "GET", observe).outcome).toBe("pass");
    expect(observed).toEqual([
      "GET /admin/seller-api/products succeeded with status 200; no source promises that a method the path does not document is refused",
    ]);
    // Links: "All responses are JSON" (x-every-response), a refusal included.
    const html = exchange(405);
    html.response = { ...html.response!, headers: { "content-type": "text/html" }, text: "<html/>", isJson: false };
    expect(
      methodRefused("links", "addDomain", { method: "GET", path: "/api/domain/add" }, html, "GET", observe).message,
    ).toMatch(
      /^GET \/api\/domain\/add was answered with status 405 and a body that is not application\/json \(text\/html: "<html\/>"\), though Links seed/,
    );
  });
});
