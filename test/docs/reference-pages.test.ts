// The generated reference pages, without a browser: what each overview explains once (the headers on every response,
// the error envelope), and that the extensions other branches of the contracts add (x-error-envelope, x-assumption)
// reach the pages. test/docs/site-*.test.ts check the built site, in Chromium and page by page.
import { describe, expect, it } from "vitest";
import { operationsOf, readBundle } from "../../scripts/docs/document.js";
import { renderReferencePages, sharedResponseHeaders } from "../../scripts/docs/reference-page.js";
import { CLIENT_ERRORS } from "../../scripts/docs/reference-overview.js";
import * as catalog from "../../clients/catalog.js";
import * as identity from "../../clients/identity.js";
import * as links from "../../clients/links.js";
import * as pay from "../../clients/pay.js";

describe("generated reference pages", () => {
  it("explain the headers every links response carries once, on the overview, and not at each operation", () => {
    const doc = readBundle("links");
    expect([...sharedResponseHeaders(doc).keys()]).toEqual([
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
    ]);
    const pages = renderReferencePages("links", doc);
    expect(pages.get("index")).toContain("<code>X-RateLimit-Limit</code>");
    for (const [page, markdown] of pages) {
      if (page === "index" || page === "schemas") continue;
      expect(markdown, page).not.toContain("<code>X-RateLimit-Limit</code></td>");
      expect(markdown, page).toContain("[headers on every response](./#response-headers)");
    }
  });

  it("shows no shared headers where responses differ (pay)", () => {
    expect(sharedResponseHeaders(readBundle("pay")).size).toBe(0);
    expect(renderReferencePages("pay", readBundle("pay")).get("index")).not.toContain("{#response-headers}");
  });

  it("describe an x-error-envelope in the errors section", () => {
    const doc = structuredClone(readBundle("pay"));
    doc["x-error-envelope"] = { property: "type", success: ["success"] };
    const overview = renderReferencePages("pay", doc).get("index")!;
    expect(overview).toContain(
      'its JSON body is an object whose `type` is present with a value other than `"success"`',
    );
    expect(overview).toContain("`PayApiError`");
  });

  it("put every operation on the page of its first tag, webhooks on their own page", () => {
    const doc = readBundle("catalog");
    const pages = renderReferencePages("catalog", doc);
    for (const op of operationsOf(doc)) {
      const page = op.webhook ? "webhooks" : (op.operation.tags as string[])[0]!;
      expect(pages.get(page), op.operationId).toContain(`{#${op.operationId}}`);
    }
  });

  it.each([
    ["identity", identity],
    ["links", links],
    ["catalog", catalog],
    ["pay", pay],
  ] as const)("name exactly the errors the %s client exports, in 'What the client throws'", (api, exports) => {
    // RateLimitError is the limiter's, not an answer of the API.
    const thrown = Object.entries(exports)
      .filter(([name, value]) => typeof value === "function" && name.endsWith("Error") && name !== "RateLimitError")
      .map(([name]) => name);
    expect(thrown.length).toBeGreaterThan(0);
    expect([...CLIENT_ERRORS[api].matchAll(/`(\w+Error)`/g)].map((m) => m[1]).sort()).toEqual(thrown.sort());
  });
});
