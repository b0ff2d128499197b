// The documented examples an overlay rewrites into the deployment's shape (conformance/overlay/examples.ts), so that
// `contracts mock --overlay` serves what the deployment answers: a value in another form on every row, but not a
// value one row had copied onto every row.
import { describe, expect, it } from "vitest";
import { type Deviation, SCHEMA_CHECK } from "../../conformance/overlay/deviations.js";
import { exampleActions } from "../../conformance/overlay/examples.js";
import { jsonPathOf } from "../../conformance/overlay/record.js";

describe("the examples an overlay rewrites into the deployment's shape", () => {
  const valueSeen = (instancePath: string, location: string, observed: unknown) => {
    const deviation: Deviation = {
      check: SCHEMA_CHECK,
      operationId: "listCampaigns",
      instancePath,
      kind: "value",
      location,
      observed,
    };
    return [{ cause: `${SCHEMA_CHECK} | ${location}`, status: 200, deviation }];
  };
  const rewritten = (actions: ReturnType<typeof exampleActions>) =>
    actions.find((action) => action.update)?.update as {
      value: { error: unknown; data: { campaigns: Array<{ list: unknown }> } };
    };

  it("a value one row of a list had stays that row's: a campaign's `list: false` is not written over every campaign", () => {
    const actions = exampleActions(
      "links",
      valueSeen("/data/campaigns/1/list", "/components/schemas/Campaign/properties/list", false),
      jsonPathOf,
    );
    expect(actions).toEqual([]);
  });

  it('the documented value in another form is: `error: 0` for the documented "0", on the page\'s envelope', () => {
    const actions = exampleActions(
      "links",
      valueSeen("/error", "/components/schemas/CampaignListResponse/properties/error", 0),
      jsonPathOf,
    );
    const example = rewritten(actions).value;
    expect(example.error).toBe(0);
    expect(example.data.campaigns.map((campaign) => campaign.list)).toEqual([
      "https://go.example.com/u/demo/201",
      "https://go.example.com/u/demo/202",
    ]);
  });
});
