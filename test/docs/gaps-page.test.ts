// The Gaps page of each API lists our assumptions (x-assumption) and the refusals the provider promises
// (x-provider-refuses) beside the x-undocumented entries, each linked to the place it applies to.
import { describe, expect, it } from "vitest";
import { collectProvenance, renderAnnotationPage } from "../../scripts/docs/annotations.js";
import { readBundle } from "../../scripts/docs/document.js";
import { API_NAMES } from "../../lib/contract/index.js";

/** The table rows of one `## heading` section of a page. */
function sectionRows(page: string, heading: string): string[] {
  const start = page.indexOf(`## ${heading}`);
  expect(start, heading).toBeGreaterThan(0);
  const rest = page.slice(start + 1);
  const end = rest.search(/^## |^::::/m);
  return rest
    .slice(0, end)
    .split("\n")
    .filter((line) => line.startsWith("| ["));
}

describe.each(API_NAMES)("%s gaps page", (api) => {
  const doc = readBundle(api);
  const page = renderAnnotationPage("gap", { api, doc });
  const provenance = collectProvenance(doc);

  it("lists every assumption and every promised refusal once, each linked to the reference page", () => {
    const assumptions = sectionRows(page, "Our assumptions");
    const refusals = sectionRows(page, "Refusals the provider promises");
    expect(assumptions).toHaveLength(provenance.filter((p) => p.kind === "assumption").length);
    expect(refusals).toHaveLength(provenance.filter((p) => p.kind === "refusal").length);
    for (const row of [...assumptions, ...refusals])
      expect(row).toMatch(/^\| \[.+\]\(\.\/[\w-]*(#[\w-]+)?\) \| .{10,} \|$/);
    for (const entry of provenance) expect(page).toContain(entry.text.replaceAll("|", "\\|"));
  });
});

describe("assumptions are where the constraints are", () => {
  it("marks the choices the issue names and the refusals the seeds promise", () => {
    const where = (api: (typeof API_NAMES)[number], kind: "assumption" | "refusal") =>
      collectProvenance(readBundle(api))
        .filter((p) => p.kind === kind)
        .map((p) => p.pointer);
    expect(where("links", "assumption")).toEqual(
      expect.arrayContaining([
        "/components/schemas/HexColor",
        "/components/schemas/ChannelCreated",
        "/components/headers/X-RateLimit-Reset/schema",
      ]),
    );
    expect(where("links", "refusal").sort()).toEqual([
      "/components/schemas/DomainAdd/properties/domain",
      "/components/securitySchemes/bearerApiKey",
    ]);
    expect(where("pay", "refusal")).toEqual(["/components/securitySchemes/requestSignature"]);
    expect(where("catalog", "assumption")).toEqual(
      expect.arrayContaining([
        "/components/schemas/Category/properties/id",
        "/components/schemas/Product/properties/id",
        "/components/schemas/ProductCreate",
      ]),
    );
    expect(where("catalog", "refusal")).toEqual([
      "/components/securitySchemes/sellerApiKey",
      "/components/parameters/IdempotencyKey",
    ]);
    expect(where("identity", "refusal")).toEqual(
      expect.arrayContaining([
        "/components/schemas/TokenRequest",
        "/components/schemas/AuthorizationCodeGrant/properties/code_verifier",
      ]),
    );
  });
});
