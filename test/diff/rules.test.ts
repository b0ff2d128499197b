// Every classification rule of the differ, proven on hand-written pairs of spec versions (test/diff/fixtures/<area>/
// old.yaml and new.yaml). Each test lists every change the pair must produce, so an unexpected one fails it too.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type Change, diffDocuments } from "../../lib/diff/index.js";
import { API_NAMES } from "../../lib/contract/index.js";
import { bundlePath } from "../../lib/paths.js";
import { fixture } from "./fixture.js";

/** `BREAKING rule operations : where`, the form the expectations are written in. */
function line(change: Change): string {
  const operations = change.operations.length > 0 ? ` ${change.operations.join(", ")}` : "";
  return `${change.breaking ? "BREAKING" : "safe"} ${change.rule}${operations}${change.where ? ` : ${change.where}` : ""}`;
}

function changesOf(area: string): string[] {
  return diffDocuments(fixture(area, "old"), fixture(area, "new")).changes.map(line).sort();
}

const EXPECTED: Record<string, string[]> = {
  operations: [
    "BREAKING server-removed",
    "safe server-added",
    "BREAKING operation-id-changed GET /orders",
    "safe operation-deprecated POST /orders",
    "BREAKING path-parameter-renamed GET /orders/{orderId} : path parameter orderId",
    "BREAKING operation-removed DELETE /orders/{id}",
    "BREAKING operation-path-changed GET /payments/refunds",
    "safe operation-added GET /customers",
  ],
  parameters: [
    "BREAKING maximum-narrowed GET /items : query parameter limit",
    "BREAKING parameter-removed GET /items : query parameter cursor",
    "safe enum-widened GET /items : query parameter sort",
    "BREAKING parameter-serialization-changed GET /items : query parameter tags",
    "BREAKING parameter-became-required GET /items : header parameter x-request-id",
    "safe parameter-became-optional GET /items : query parameter region",
    "BREAKING default-changed GET /items : query parameter page",
    "safe type-widened GET /items : query parameter fields",
    "safe parameter-added GET /items : query parameter lang",
    "BREAKING required-parameter-added GET /items : header parameter Tenant",
    "BREAKING header-became-optional GET /items : response 200 header X-Total-Count",
    "BREAKING header-removed GET /items : response 200 header X-Next-Cursor",
    "safe header-added GET /items : response 200 header X-RateLimit-Remaining",
    "safe header-became-required GET /items : response 200 header Deprecation",
    "BREAKING header-serialization-changed GET /items : response 200 header Link",
  ],
  "request-bodies": [
    "safe media-type-added POST /orders : request body application/x-www-form-urlencoded",
    ...[
      "BREAKING additional-properties-narrowed",
      "BREAKING required-property-added .currency",
      "safe property-added .referrer",
      "BREAKING property-became-required .coupon",
      "BREAKING property-removed .gift",
      "BREAKING pattern-changed .sku",
      "BREAKING minimum-narrowed .quantity",
      "safe maximum-widened .quantity",
      "BREAKING max-length-narrowed .note",
      "safe enum-widened .channel",
      "BREAKING enum-narrowed .priority",
      "BREAKING format-narrowed .email",
      "safe type-widened .price",
      "safe property-became-optional .address.city",
      "BREAKING one-of-narrowed .payment",
      "safe max-items-widened .lines",
    ].map((c) =>
      c.replace(
        /^(\S+ \S+)( .*)?$/,
        (_, rule, path = "") => `${rule} POST /orders, PUT /orders/{id} : request body application/json${path}`,
      ),
    ),
    "BREAKING request-body-became-required PUT /orders/{id} : request body",
    "safe request-body-added PATCH /profile : request body",
    "BREAKING media-type-removed POST /notes : request body text/plain",
    "BREAKING request-body-removed DELETE /sessions : request body",
    "BREAKING required-request-body-added POST /logout : request body",
  ],
  responses: [
    "BREAKING media-type-removed GET /orders : response 2XX application/xml",
    ...[
      "BREAKING enum-widened [].status",
      "safe enum-narrowed [].kind",
      "safe type-narrowed [].total",
      "BREAKING property-became-optional [].total",
      "BREAKING format-changed [].createdAt",
      "BREAKING type-widened [].note",
      "BREAKING property-removed [].legacyRef",
      "safe required-property-added [].currency",
      "safe property-added [].trackingUrl",
      "safe schema-narrowed [].metadata",
      "safe property-became-required [].lines[].qty",
      "safe additional-properties-widened []",
    ].map((c) =>
      c.replace(
        /^(\S+ \S+) (.*)$/,
        (_, rule, path) => `${rule} GET /orders, GET /orders/{id} : response 2XX application/json ${path}`,
      ),
    ),
    "safe media-type-added GET /orders/{id} : response 200 text/csv",
    "BREAKING response-added GET /orders/{id} : response 202",
    "safe response-added GET /orders/{id} : response 410",
    "BREAKING response-removed GET /orders/{id} : response 404",
    "BREAKING response-range-widened GET /orders : response 2XX",
    "BREAKING response-range-narrowed GET /receipts : response 200",
  ],
  security: [
    "BREAKING security-narrowed GET /a : security",
    "BREAKING security-narrowed GET /b : security",
    "safe security-widened GET /c : security",
    "safe security-widened GET /d : security",
    "safe security-widened GET /e : security",
    "BREAKING security-narrowed GET /f : security",
    "safe security-widened GET /f : security",
    "BREAKING security-scheme-changed",
    "BREAKING security-scheme-changed",
    "BREAKING security-scheme-removed",
    "safe security-scheme-added",
    "BREAKING security-scope-removed",
    "safe security-scope-added",
    "safe security-flow-added",
  ],
  webhooks: [
    ...[
      "BREAKING property-became-optional .amount",
      "BREAKING enum-widened .currency",
      "BREAKING property-removed .note",
      "safe required-property-added .paidAt",
    ].map((c) =>
      c.replace(
        /^(\S+ \S+) (.*)$/,
        (_, rule, path) => `${rule} webhook orderPaid (POST) : request body application/json ${path}`,
      ),
    ),
    "BREAKING request-body-became-optional webhook orderPaid (POST) : request body",
    "BREAKING required-header-added webhook orderPaid (POST) : response 200 header X-Handled-By",
    "safe additional-properties-widened webhook orderPaid (POST) : response 200 application/json",
    "BREAKING property-removed webhook orderPaid (POST) : response 200 application/json .reference",
    "BREAKING required-property-added webhook orderPaid (POST) : response 200 application/json .handledAt",
    "BREAKING response-removed webhook orderPaid (POST) : response 409",
    "safe response-added webhook orderPaid (POST) : response 202",
    "safe response-added webhook orderPaid (POST) : response 422",
    "BREAKING security-changed webhook orderPaid (POST) : security",
    "BREAKING operation-removed webhook orderShipped (POST)",
    "safe operation-added webhook orderRefunded (POST)",
    "safe security-scheme-added",
  ],
  schemas: [
    "BREAKING all-of-narrowed POST /categories : request body application/json",
    "BREAKING unique-items-narrowed POST /categories : request body application/json .tags",
    "BREAKING type-narrowed POST /categories : request body application/json .labels[]",
    "BREAKING dependencies-changed POST /categories : request body application/json .billing",
    "BREAKING not-changed POST /categories : request body application/json .code",
    "BREAKING multiple-of-changed POST /categories : request body application/json .weight",
    "BREAKING max-length-narrowed POST /categories : request body application/json .meta.*",
    "BREAKING type-widened POST /categories : response 200 application/json .parentName",
    "safe property-added POST /categories : response 200 application/json .slug",
    "BREAKING any-of-widened POST /categories : response 200 application/json .value",
    "safe schema-deprecated POST /categories : response 200 application/json .name",
  ],
  envelopes: [
    "BREAKING any-of-widened GET /account : response 200 application/json",
    "BREAKING any-of-widened GET /profile : response 200 application/json",
    "safe property-added GET /account, GET /profile : response 200 application/json <anyOf Account>.email",
    "safe one-of-widened POST /notes : request body application/json",
    "safe any-of-narrowed POST /notes : response 200 application/json",
    "BREAKING any-of-narrowed POST /tags : request body application/json",
    // No branch of the new anyOf is the old schema: compared keyword by keyword, as before.
    "BREAKING type-widened GET /status : response 200 application/json",
    "BREAKING property-removed GET /status : response 200 application/json .up",
    "safe any-of-narrowed GET /status : response 200 application/json",
  ],
};

describe("contracts diff classifies each change of a fixture pair", () => {
  it.each(Object.keys(EXPECTED))("%s", (area) => {
    expect(changesOf(area)).toEqual([...EXPECTED[area]!].sort());
  });

  it("finds no change between a document and itself, for every contract of this repository", () => {
    for (const api of API_NAMES) {
      const doc = JSON.parse(readFileSync(bundlePath(api), "utf8"));
      expect(diffDocuments(doc, structuredClone(doc)).changes, api).toEqual([]);
    }
  });

  it("reports a change of a shared component once, listing every operation it affects", () => {
    const changes = diffDocuments(fixture("request-bodies", "old"), fixture("request-bodies", "new")).changes;
    const currency = changes.filter((c) => c.rule === "required-property-added");
    expect(currency).toHaveLength(1);
    expect(currency[0]).toMatchObject({
      operations: ["POST /orders", "PUT /orders/{id}"],
      direction: "sent",
      pointer: "/components/schemas/OrderCreate/properties/currency",
      message: "required property `currency` added",
    });
  });

  it("reports a body wrapped in an anyOf (the success | error envelope) as one change, at the wrapper", () => {
    const changes = diffDocuments(fixture("envelopes", "old"), fixture("envelopes", "new")).changes;
    expect(changes.find((c) => c.operations.includes("GET /account"))).toMatchObject({
      rule: "any-of-widened",
      breaking: true,
      direction: "received",
      message: "wrapped in anyOf with Error",
      pointer: "/paths/~1account/get/responses/200/content/application~1json/schema",
    });
    expect(changes.find((c) => c.operations.includes("POST /tags"))?.message).toBe(
      'no longer wrapped in anyOf with {"type":"integer"}',
    );
  });

  it("flips the directions for a webhook: the event is received, the reply is sent", () => {
    const changes = diffDocuments(fixture("webhooks", "old"), fixture("webhooks", "new")).changes;
    const directions = new Set(
      changes.filter((c) => c.direction).map((c) => `${c.where.split(" ")[0]} ${c.direction}`),
    );
    expect(directions).toEqual(new Set(["request received", "response sent"]));
  });

  it("documents every rule in the docs' table, and the fixtures produce every rule named there", () => {
    const page = readFileSync(new URL("../../docs/guide/versioning.md", import.meta.url), "utf8");
    const table = page.slice(page.indexOf("## What counts as breaking"), page.indexOf("Decisions worth knowing"));
    const documented = [...table.matchAll(/^\| (.*?) \|/gm)].flatMap((row) =>
      [...row[1]!.matchAll(/`([^`]+)`/g)].map((id) => id[1]!),
    );
    const patterns = documented.map((id) => new RegExp(`^${id.replace(/<[a-z]+>/g, "[a-z-]+")}$`));
    const produced = new Set(
      Object.keys(EXPECTED).flatMap((area) =>
        diffDocuments(fixture(area, "old"), fixture(area, "new")).changes.map((c) => c.rule),
      ),
    );
    expect([...produced].filter((rule) => !patterns.some((pattern) => pattern.test(rule)))).toEqual([]);
    expect(documented.filter((id) => !id.includes("<") && !produced.has(id))).toEqual([]);
  });

  it("counts the breaking changes", () => {
    const result = diffDocuments(fixture("security", "old"), fixture("security", "new"));
    expect(result.breaking).toBe(result.changes.filter((c) => c.breaking).length);
    expect(result.breaking).toBe(EXPECTED.security!.filter((c) => c.startsWith("BREAKING")).length);
    expect(result.before.version).toBe("1.0.0");
    expect(result.after.version).toBe("2.0.0");
  });
});
