// A deployment whose code departs from its published docs (issue 46), as the independent links server drifts when
// asked (conformance/oracle/links-drift.ts): a run fails on the departures, `contracts overlay record` turns that
// run's report into an Overlay 1.0 document, and with it the next run passes, a new fault still fails, and a
// departure the deployment no longer has is reported as no longer seen. Real HTTP on loopback, the real CLI for
// record. The other readers of the overlay (diff, docs, mock, generate) are in overlay-readers.test.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEPLOYMENT_DRIFT, type DeploymentDrift } from "../../conformance/oracle/links.js";
import type { CauseEntry, RunReport } from "../../conformance/report/report.js";
import { type OverlayDocument, overlayProblems } from "../../lib/contract/overlay.js";
import { conformInProcess } from "../support/conform.js";
import { driftedLinksFixture, type RecordedOverlay } from "../support/drifted-links.js";
import { runContracts } from "../support/processes.js";

const { env, dir, overlayFile, drifted, args, failing, recorded, causes, shapes, responses, behaviours } =
  driftedLinksFixture();
let firstRun: RecordedOverlay["firstRun"];
let overlay: OverlayDocument;
let recordOutput: string;
beforeAll(async () => {
  ({ firstRun, overlay, recordOutput } = await recorded());
});

describe("a links deployment that drifted from its docs", () => {
  it("fails a run on each departure from the seed", () => {
    const text = failing(firstRun.report).join("\n");
    expect(firstRun.code, firstRun.output).toBe(1);
    expect(text).toMatch(/listDomains: .*\/error must be string/);
    expect(text).toMatch(/listOverlays: .*must have required property 'cta'/);
    expect(text).toMatch(/addCampaign: .*must have required property 'domain'/);
    expect(text).toMatch(/listDomains: .*\/data\/nextpage must be integer/);
    expect(text).toMatch(/getAccount: .*\/data\/expires must be string/);
    expect(text).toMatch(/addDomain: .*\/id must be integer/);
    // Valid data refused: the seed's campaign name is optional, the deployment's code requires it.
    expect(text).toMatch(/positive_data_acceptance on addCampaign: valid data was refused: error 1 in the body/);
  });

  it("overlay record writes an Overlay 1.0 document of the proven deviations, one cause per schema location, with the evidence", () => {
    expect(overlayProblems(overlay)).toEqual([]);
    expect(overlay.overlay).toBe("1.0.0");
    expect(overlay.extends).toBe("generated/openapi/links.json");
    const locations = shapes().map((action) => action["x-schema-location"]);
    expect(new Set(locations).size).toBe(locations.length);
    expect(locations).toEqual(
      expect.arrayContaining([
        "/components/schemas/DomainListResponse/properties/error",
        "/components/schemas/OverlayPage",
        "/components/schemas/CampaignSaved",
        "/components/schemas/DomainPage/properties/nextpage",
        "/components/schemas/Account/properties/expires",
        "/components/schemas/CreatedResponse/properties/id",
      ]),
    );
    // addCampaign and updateCampaign break the same schema location: one cause.
    const campaign = shapes().find((action) => action["x-schema-location"] === "/components/schemas/CampaignSaved")!;
    expect(campaign["x-operations"]).toEqual(["addCampaign", "updateCampaign"]);
    expect(campaign.update).toEqual({ properties: { campaign: expect.objectContaining({ type: "string" }) } });
    for (const action of shapes()) {
      expect(action["x-check"]).toBe("response_schema_conformance");
      expect(action["x-exchange"]).toMatchObject({
        request: { method: expect.any(String) },
        response: { status: 200 },
      });
      expect(action["x-seed-sentence"], String(action["x-schema-location"])).toEqual(expect.any(String));
    }
    const sentence = (location: string) =>
      shapes().find((action) => action["x-schema-location"] === location)!["x-seed-sentence"];
    expect(sentence("/components/schemas/Account/properties/expires")).toMatch(/^\| expires \| string \|/);
    expect(sentence("/components/schemas/OverlayPage")).toMatch(/\/api\/overlay.*cta/);
    expect(sentence("/components/schemas/DomainListResponse/properties/error")).toMatch(/^\| error \|/);
    // What no schema can say is a behaviour on each operation it failed on: the 405 HTML page without Allow that
    // every path answers to a method it does not document is one cause per check, each with its evidence.
    for (const check of ["unsupported_method", "allow_header"]) {
      const [cause, ...more] = behaviours().filter((action) => action["x-check"] === check);
      expect(more, check).toEqual([]);
      expect(cause!["x-operations"]).toEqual(expect.arrayContaining(["getAccount", "listDomains", "addChannel"]));
      expect(cause!["x-exchange"]).toMatchObject({ response: { status: 405 } });
      const onOperations = overlay.actions.filter((action) => action["x-cause"] === cause!["x-cause"]);
      expect(onOperations).toHaveLength((cause!["x-operations"] as string[]).length);
      for (const action of onOperations)
        expect(action.update).toEqual({ "x-known-behaviours": { [String(cause!["x-cause"])]: expect.any(Object) } });
    }
    expect(behaviours().find((action) => action["x-check"] === "allow_header")!["x-seed-sentence"]).toMatch(
      /RFC 9110 §15\.5\.6/,
    );
    // The 500 page a path id that is not a whole number gets: a server error stays a behaviour, and its HTML is a
    // response of each operation it answered, which OpenAPI can say, as loose as the evidence (a text).
    expect(behaviours().map((action) => action["x-exchange"])).toContainEqual(
      expect.objectContaining({ response: expect.objectContaining({ status: 500 }) }),
    );
    // The `{}` campaign add refused with the API's error envelope: valid data refused, a behaviour of addCampaign.
    const [refused, ...moreRefused] = behaviours().filter((action) => action["x-check"] === "positive_data_acceptance");
    expect(moreRefused).toEqual([]);
    expect(refused!["x-operations"]).toEqual(["addCampaign"]);
    expect(refused!["x-exchange"]).toMatchObject({
      request: { method: "POST", url: expect.stringMatching(/\/api\/campaign\/add$/), body: "{}" },
      response: { status: 400, body: expect.stringContaining(`"error":1`) },
    });
    // It departs from the row of the seed's endpoint table that says what the request may carry.
    expect(refused!["x-seed-sentence"]).toMatch(
      /^links seed: \| POST \| \/api\/campaign\/add \| body: name \(string, optional\)/,
    );
    const [page, ...otherPages] = responses();
    expect(otherPages).toEqual([]);
    expect(page!["x-response"]).toEqual({ status: 500, mediaType: "text/html" });
    expect(page!["x-check"]).toBe("content_type_conformance");
    expect(page!["x-operations"]).toEqual(expect.arrayContaining(["listChannelItems"]));
    const onOperations = overlay.actions.filter((action) => action["x-cause"] === page!["x-cause"]);
    expect(onOperations).toHaveLength((page!["x-operations"] as string[]).length);
    for (const action of onOperations) {
      expect(action.target).toMatch(/^\$\.paths\['\/api\/[^']+'\]\.\w+\.responses$/);
      const response = (action.update as Record<string, { description: string; content: Record<string, unknown> }>)[
        "500"
      ]!;
      expect(response.content["text/html"]).toEqual({ schema: { type: "string" } });
      // What the operation documented for a 500 before (its JSON error, by `default`) stays documented.
      expect(response.content["application/json"]).toEqual(expect.any(Object));
      expect(response.description).toContain(`from the run of ${firstRun.report.finishedAt}`);
      expect(response.description).toContain(String(page!["x-cause"]));
    }
    // The exchanges are the report's, redacted: the API key never appears.
    expect(readFileSync(overlayFile, "utf8")).not.toContain(env.LINKS_TOKEN);
    expect(recordOutput).toMatch(/review them before you commit the overlay/);
    // The recording run reached its whole plan, and said at its start what it would take; so the `nextpage` of the
    // last pages, which the default budget never reached, is recorded too.
    expect(firstRun.stderr).toMatch(/^plan: \d+ cases, about \d+ requests, all within the budget/m);
    expect(firstRun.report.budget?.notReached ?? 0).toBe(0);
    expect(recordOutput).not.toMatch(/planned cases/);
    const nextpages = shapes().filter((action) => /\/nextpage$/.test(String(action["x-schema-location"])));
    expect(nextpages.length, JSON.stringify(shapes().map((a) => a["x-schema-location"]))).toBeGreaterThan(1);
  });

  it("a run the budget stopped: the record says what it did not reach", async () => {
    const cut = await conformInProcess(args((await drifted()).url, "--max-requests", "20"), env);
    expect(cut.stderr).toMatch(
      /^plan: .*the budget of 20 requests reaches part of it \(--max-requests none runs it all\)/m,
    );
    const record = runContracts([
      "overlay",
      "record",
      "links",
      "--from-json",
      cut.files.json,
      "-o",
      join(dir, "cut.yaml"),
    ]);
    await record.exit;
    expect(record.stderr()).toMatch(
      /the run reached \d+ of its \d+ planned cases; a deviation on the other \d+ is not recorded.*--max-requests none/,
    );
  });

  it("with the overlay, the next run passes and confirms every recorded deviation", async () => {
    const { code, report, output } = await conformInProcess(args((await drifted()).url, "--overlay", overlayFile), env);
    expect(failing(report), output).toEqual([]);
    expect(output).toMatch(/passed: no new causes of failure; \d+ known causes? \(in the overlay\)/);
    expect(code).toBe(0);
    expect(report.overlay?.file).toBe(overlayFile);
    expect(report.overlay?.causes.length).toBe(causes().length);
    expect(report.overlay?.causes.filter((cause) => cause.state !== "confirmed")).toEqual([]);
    const count = causes().length;
    expect(output).toMatch(
      new RegExp(`Overlay .*links\\.overlay\\.yaml .*: ${count} of its ${count} deviation\\(s\\) confirmed`),
    );
  });

  it("with the overlay, a new fault of the deployment still fails the run", async () => {
    const server = await drifted({ fault: "channel-name-uppercased" });
    const { code, report, output } = await conformInProcess(args(server.url, "--overlay", overlayFile), env);
    expect(code, output).toBe(1);
    // The new channel's name, stored in capitals, is read back on the channel list: a finding of its own.
    expect(report.failures.map((f) => f.operationId)).toContain("listChannels");
    expect(report.failures.filter((f) => f.check === "response_schema_conformance")).toEqual([]);
  });

  it("with the overlay alone, a planted delete that keeps the domain exits 1 with only its causes", async () => {
    const server = await drifted({ fault: "domain-delete-keeps-resource" });
    const { code, report, output } = await conformInProcess(args(server.url, "--overlay", overlayFile), env);
    expect(code, output).toBe(1);
    // The domain the run deleted still answers its update and is still listed: the two causes of use_after_free, and
    // nothing else new (the recorded deviations stay known).
    const fresh = (report as RunReport & { causes: CauseEntry[] }).causes.filter((cause) => !cause.known);
    expect(
      fresh.map((cause) => [cause.check, cause.operations]),
      output,
    ).toEqual([
      ["use_after_free", ["updateDomain"]],
      ["use_after_free", ["listDomains"]],
    ]);
    expect(failing(report)).toEqual([
      expect.stringMatching(
        /^use_after_free on updateDomain: the domain \d+ was deleted but updateDomain still answered 200/,
      ),
      expect.stringMatching(/^use_after_free on listDomains: the domain \d+ was deleted but is still in listDomains/),
    ]);
  });

  it("a deviation the deployment no longer has is reported as no longer seen, and the run passes", async () => {
    const fixed: DeploymentDrift[] = DEPLOYMENT_DRIFT.filter((drift) => drift !== "overlay-array-key");
    const server = await drifted({ drift: fixed });
    const html = join(dir, "no-longer-seen.html");
    const { code, report, output, files } = await conformInProcess(
      args(server.url, "--overlay", overlayFile, "--html", html),
      env,
      [],
      { junit: true },
    );
    expect(failing(report), output).toEqual([]);
    expect(code).toBe(0);
    const count = causes().length;
    const states = Object.fromEntries(report.overlay!.causes.map((cause) => [cause.cause, cause.state]));
    expect(states["response_schema_conformance | /components/schemas/OverlayPage"]).toBe("no longer seen");
    expect(Object.values(states).filter((state) => state === "confirmed")).toHaveLength(causes().length - 1);
    expect(output).toMatch(
      /no longer seen: response_schema_conformance \| \/components\/schemas\/OverlayPage .*remove these actions/,
    );
    // The JUnit and HTML reports name the overlay and list each cause's state too.
    const junit = readFileSync(files.junit!, "utf8");
    expect(junit).toMatch(
      new RegExp(
        `<property name="overlay" value="Overlay .*links\\.overlay\\.yaml .*: ${count - 1} of its ${count} deviation`,
      ),
    );
    expect(junit).toMatch(
      /<testcase classname="conform\.links\.overlay" name="response_schema_conformance \| \/components\/schemas\/OverlayPage \(actions? [#\d, ]+; listOverlays\)"><skipped message="no longer seen: .*remove these actions from the overlay"\/>/,
    );
    const confirmed = [...junit.matchAll(/<testcase classname="conform\.links\.overlay" name="[^"]*"\/>/g)];
    expect(confirmed).toHaveLength(causes().length - 1);
    expect(junit).toMatch(/<testsuites name="contracts conform" tests="\d+" failures="0" errors="0"/);
    const page = readFileSync(html, "utf8");
    expect(page).toMatch(
      new RegExp(
        `<h2 id="overlay">Overlay .*links\\.overlay\\.yaml .*: ${count - 1} of its ${count} deviation\\(s\\) confirmed, 1 no longer seen`,
      ),
    );
    expect(page).toMatch(
      /<li>no longer seen: response_schema_conformance \| \/components\/schemas\/OverlayPage \(actions? [#\d, ]+; listOverlays\): the deployment no longer deviates here/,
    );
    expect(page.match(/<li>confirmed: response_schema_conformance \| /g)).toHaveLength(shapes().length - 1);
    expect(page.match(/<li>confirmed: (unsupported_method|allow_header) \| /g)).toHaveLength(2);
  });

  it("an overlay that is not Overlay 1.0, or whose target selects nothing, is a usage error", async () => {
    const broken = join(dir, "broken.yaml");
    writeFileSync(broken, "overlay: 1.0.0\ninfo: { title: t }\nactions: []\n");
    const stale = join(dir, "stale.yaml");
    writeFileSync(
      stale,
      "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nextends: links.json\nactions:\n  - target: $.components.schemas.Nothing\n    update: { type: string }\n",
    );
    const server = await drifted();
    const notOverlay = await conformInProcess(args(server.url, "--overlay", broken), env).then(
      () => "a report",
      (error: Error) => error.message,
    );
    expect(notOverlay).toMatch(/not an Overlay 1\.0 document: .*version.*|actions must NOT have fewer than 1/);
    const selectsNothing = await conformInProcess(args(server.url, "--overlay", stale), env).then(
      () => "a report",
      (error: Error) => error.message,
    );
    expect(selectsNothing).toMatch(/1 action\(s\) select nothing in the contract: #1 \$\.components\.schemas\.Nothing/);
  });
});
