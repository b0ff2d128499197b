// The built docs site (test/docs/support/built-site.ts) against the specs, page by page without a browser: every
// operation's samples, notes, badges and anchors, every schema, quirk, gap and assumption, the pay signing vector,
// the changelog, and the operation paths filled in for pages that name operations by operationId.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { API_NAMES, type ApiName } from "../../lib/contract/index.js";
import { operationsOf, readBundle } from "../../scripts/docs/document.js";
import { notesOf } from "../../scripts/docs/operation-notes.js";
import { renderReferencePages } from "../../scripts/docs/reference-page.js";
import { readerBundle } from "../../scripts/docs/reader-bundle.js";
import { repoRoot } from "../support/processes.js";
import { builtSite } from "./support/built-site.js";
import { type BuiltApiPages, missingFromOperation, missingFromSite, operationSection } from "./support/coverage.js";

let outDir: string;

beforeAll(async () => {
  outDir = await builtSite();
}, 600_000);

describe("the built site covers the specs", () => {
  const built = (api: ApiName): BuiltApiPages => {
    const dir = join(outDir, "reference", api);
    const reference = new Map<string, string>();
    for (const file of readdirSync(dir)) {
      const page = file.replace(/\.html$/, "");
      if (page !== "quirks" && page !== "gaps") reference.set(page, readFileSync(join(dir, file), "utf8"));
    }
    return {
      reference,
      quirks: readFileSync(join(dir, "quirks.html"), "utf8"),
      gaps: readFileSync(join(dir, "gaps.html"), "utf8"),
    };
  };

  it.each(API_NAMES)(
    "%s: every operation shows its samples, types, notes with badges and stable anchors; every schema, quirk and gap is on the site",
    (api) => {
      const doc = readBundle(api);
      expect(operationsOf(doc).length).toBeGreaterThan(0);
      expect(missingFromSite(api, doc, built(api))).toEqual([]);
    },
  );

  it("reports an operation, schema, quirk, gap or assumption the site does not show", () => {
    const doc = structuredClone(readBundle("pay"));
    doc.paths!["/api/refund/"] = {
      post: {
        operationId: "refundOrder",
        tags: ["orders"],
        "x-quirk": "Refunds are a GET in disguise.",
        responses: {},
      },
    };
    doc.components!.schemas!.Refund = { type: "object", "x-undocumented": ["The refund window is not shown."] };
    (doc.components!.schemas!.CreatedOrder as Record<string, any>).properties.url["x-assumption"] =
      "We assume the payment link stays valid for an hour.";
    const assumptions = assumptionCount(doc, "createOrder");
    expect(missingFromSite("pay", doc, built("pay"))).toEqual([
      "createOrder: assumption (schema `CreatedOrder` › `url`): We assume the payment link stays valid for an hour.",
      `createOrder: badge "${assumptions} assumption" in the header`,
      expect.stringMatching(/^refundOrder: /),
      "schema Refund",
      "quirk on the quirks page: Refunds are a GET in disguise. (/paths/~1api~1refund~1/post)",
      "quirk on the reference pages: Refunds are a GET in disguise. (/paths/~1api~1refund~1/post)",
      "assumption on the reference pages: We assume the payment link stays valid for an hour. (/components/schemas/CreatedOrder/properties/url)",
      "gap on the gaps page: The refund window is not shown. (/components/schemas/Refund)",
      "gap on the reference pages: The refund window is not shown. (/components/schemas/Refund)",
      "assumption on the gaps page: We assume the payment link stays valid for an hour. (/components/schemas/CreatedOrder/properties/url)",
    ]);
  });

  it("shows an x-assumption at every operation it applies to, with a badge, on the site and in the Redoc copy", () => {
    const doc = structuredClone(readBundle("pay"));
    const sentence = "We assume the payment link stays valid for an hour.";
    (doc.components!.schemas!.CreatedOrder as Record<string, any>).properties.url["x-assumption"] = sentence;
    const markdown = renderReferencePages("pay", doc).get("orders")!;
    const section = operationSection(
      markdown.replace(/^## (\S+?):.*\{#(\w+)\}$/gm, '<h2 id="$2">$&</h2>'),
      "createOrder",
    )!;
    expect(section).toContain(sentence);
    const assumptions = assumptionCount(doc, "createOrder");
    expect(section).toMatch(new RegExp(`data-kind="assumption">${assumptions} assumptions?<`));
    expect(
      operationSection(markdown.replace(/^## (\S+?):.*\{#(\w+)\}$/gm, '<h2 id="$2">$&</h2>'), "listOrders"),
    ).not.toContain(sentence);
    const redoc = operationsOf(readerBundle("pay", doc)).find((op) => op.operationId === "createOrder")!;
    expect(redoc.operation.description).toContain(`**Assumption** (schema \`CreatedOrder\` › \`url\`): ${sentence}`);
    // The check of the built pages sees it missing from the real site, which does not have it.
    expect(missingFromOperation("pay", doc, "createOrder", built("pay").reference.get("orders")!)).toContain(
      `createOrder: badge "${assumptions} assumption" in the header`,
    );
  });

  it("pay: the signing test vector on the reference recomputes with WebCrypto", async () => {
    const html = built("pay").reference.get("index")!;
    const value = (name: string) => {
      const match = new RegExp(`data-vector="${name}">([^<]*)<`).exec(html);
      expect(match, name).not.toBeNull();
      return match![1]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<");
    };
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(value("key")),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = Buffer.from(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(value("body")))).toString(
      "hex",
    );
    expect(value("hmac")).toBe(mac);
    expect(value("header")).toBe(`Authorization: Bearer ${mac}`);
  });

  it("the changelog page is built from CHANGELOG.md", () => {
    const html = readFileSync(join(outDir, "changelog.html"), "utf8");
    const headings = [...readFileSync(join(repoRoot, "CHANGELOG.md"), "utf8").matchAll(/^##+ (.+)$/gm)].map(
      (m) => m[1]!,
    );
    expect(headings.length).toBeGreaterThan(0);
    for (const heading of headings) expect(html).toContain(heading);
  });
});

/** How many assumptions the reference shows at one operation of a document (the spec's own ones and a fixture's). */
function assumptionCount(doc: ReturnType<typeof readBundle>, operationId: string): number {
  const op = operationsOf(doc).find((o) => o.operationId === operationId)!;
  return notesOf(doc, op).filter((note) => note.kind === "assumption").length;
}
