// A deployment whose code departs from its published docs (issue 46), as the independent links server drifts when
// asked (conformance/oracle/links-drift.ts): a run fails on the departures, `contracts overlay record` turns that
// run's report into an Overlay 1.0 document, and with it the next run passes, a new fault still fails, a departure
// the deployment no longer has is reported as no longer seen, the mock serves the deployment's shapes and the types
// generated with the overlay type-check a client that reads them. Real HTTP on loopback, the real CLI for record,
// mock and generate, real tsc.
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import {
  DEPLOYMENT_DRIFT,
  type DeploymentDrift,
  type OracleLinksOptions,
  startOracleLinksServer,
} from "../../conformance/oracle/links.js";
import { overlayDiff } from "../../conformance/overlay/diff.js";
import { loadOverlay, type OverlayDocument, overlayProblems } from "../../lib/contract/overlay.js";
import { docsOverlay, referenceNavigation, writeGeneratedPages } from "../../scripts/docs/pages.js";
import { conformInProcess } from "../support/conform.js";
import { freePort } from "../support/ports.js";
import { repoRoot, runContracts, runToEnd } from "../support/processes.js";

const env = { ...FAULT_SERVER_CREDENTIALS };
const dir = mkdtempSync(join(tmpdir(), "overlay-test-"));
const overlayFile = join(dir, "links.overlay.yaml");
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function drifted(options: Omit<OracleLinksOptions, "token" | "windowMs"> = {}): Promise<RunningServer> {
  const server = await startOracleLinksServer({
    token: env.LINKS_TOKEN,
    windowMs: 1000,
    drift: DEPLOYMENT_DRIFT,
    ...options,
  });
  servers.push(server);
  return server;
}

const args = (url: string, ...more: string[]) => [
  "links",
  ...["--base-url", url, "--seed", "5", "--max-examples", "4", "--rate-limit", "1000/s", "--allow-writes"],
  ...more,
];

/** The failures that fail the run: not known (as the overlay's x-known-behaviours make them). */
const failing = (report: {
  failures: Array<{ check: string; operationId: string; message: string; known?: boolean }>;
}) => report.failures.filter((f) => !f.known).map((f) => `${f.check} on ${f.operationId}: ${f.message}`);

let firstRun: Awaited<ReturnType<typeof conformInProcess>>;
let overlay: OverlayDocument;
let recordOutput: string;

beforeAll(async () => {
  firstRun = await conformInProcess(args((await drifted()).url), env);
  const record = runContracts(["overlay", "record", "links", "--from-json", firstRun.files.json, "-o", overlayFile]);
  const code = await record.exit;
  recordOutput = `${record.stdout()}\n${record.stderr()}`;
  if (code !== 0) throw new Error(`overlay record exited ${code}: ${recordOutput}`);
  overlay = parseYaml(readFileSync(overlayFile, "utf8")) as OverlayDocument;
});

const causes = () => overlay.actions.filter((action) => action["x-check"]);
/** The causes of a wrong shape, recorded as schema changes. */
const shapes = () => causes().filter((action) => action["x-schema-location"]);
/** The causes a schema cannot say (the router's 405 and 500 pages), recorded as x-known-behaviours. */
const behaviours = () => causes().filter((action) => !action["x-schema-location"]);

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
    // The 500 page a path id that is not a whole number gets.
    expect(behaviours().map((action) => action["x-exchange"])).toContainEqual(
      expect.objectContaining({ response: expect.objectContaining({ status: 500 }) }),
    );
    // The exchanges are the report's, redacted: the API key never appears.
    expect(readFileSync(overlayFile, "utf8")).not.toContain(env.LINKS_TOKEN);
    expect(recordOutput).toMatch(/review them before you commit the overlay/);
    // The first run stopped at its budget: the record says what it did not reach.
    expect(firstRun.report.budget!.notReached).toBeGreaterThan(0);
    expect(recordOutput).toMatch(
      /the run reached \d+ of its \d+ planned cases; a deviation on the other \d+ is not recorded/,
    );
  });

  it("with the overlay, the next run passes and confirms every recorded deviation", async () => {
    const { code, report, output } = await conformInProcess(args((await drifted()).url, "--overlay", overlayFile), env);
    expect(failing(report), output).toEqual([]);
    expect(output).toMatch(/\(known, in the overlay\) allow_header/);
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

describe("the deployment's shapes beyond the runner", () => {
  it("contracts overlay diff shows what the overlay changes in the reference: the operations, then each place", async () => {
    const diff = runContracts(["overlay", "diff", overlayFile]);
    expect(await diff.exit, diff.stderr()).toBe(0);
    const lines = diff.stdout().split("\n");
    expect(lines[0]).toBe(
      `${overlayFile} (${overlay.info.title}, ${overlay.info.version}): ${overlay.actions.length} action(s) on the links contract`,
    );
    expect(lines[1]).toMatch(/^It changes 10 operation\(s\): .*listOverlays \(changed\), .*addCampaign \(changed\)/);
    expect(lines).toContain(
      '+ /components/schemas/OverlayPage/properties/overlay: {"type":"array","items":{"$ref":"#/components/schemas/Overlay"}}',
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^~ \/components\/schemas\/CampaignSaved\/required: \[.*"domain".*\] -> \[(?!.*"domain")/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^- \/paths\/~1api~1overlay\/get\/.*\/examples\/twoOverlays\/value\/data\/cta: \[/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^\+ \/paths\/~1api~1overlay\/get\/.*\/examples\/twoOverlays\/value\/data\/overlay: \[/),
    );
  });

  it("the docs site shows it as a page of the links reference: the operations, linked to their sections, and each place before and after", async () => {
    const root = join(dir, "docs");
    const overlaySource = docsOverlay(overlayFile);
    await writeGeneratedPages(root, overlaySource);
    const reference = join(root, "reference", "links");
    const page = readFileSync(join(reference, "overlay.md"), "utf8");
    expect(referenceNavigation("links", overlaySource).at(-1)).toEqual({
      link: "/reference/links/overlay",
      text: "Deployment overlay",
    });
    expect(referenceNavigation("pay", overlaySource).map((entry) => entry.text)).not.toContain("Deployment overlay");
    expect(page).toContain(`generated with the overlay \`links.overlay.yaml\` (${overlay.info.title}`);
    // The same changes as `contracts overlay diff`: its ten operations (nine change shape, addChannel only its
    // x-known-behaviours), and one section per changed place.
    const rows = [...page.matchAll(/^\| \[`(\w+)`\]\(\.\/([\w-]+)#(\w+)\) \| (changed|removed) \|$/gm)];
    expect(rows.map((row) => row[1])).toEqual(expect.arrayContaining(["listOverlays", "addCampaign", "getAccount"]));
    expect(rows).toHaveLength(10);
    const diffLines = overlayDiff(await loadOverlay(overlayFile)).split("\n");
    const diffPlaces = diffLines.filter((line) => /^[-+~] \//.test(line));
    expect(page.match(/^\*\*(Added|Removed|Changed)\*\* in \[/gm)).toHaveLength(diffPlaces.length);
    // A place's section: where it is, linked, then its value before and after as JSON code blocks (or absent).
    const sections = page.split(/\n(?=\*\*(?:Added|Removed|Changed)\*\* in )/);
    const place = (pointer: string) => {
      const section = sections.find((text) => text.split("\n")[0]!.endsWith(`: \`${pointer}\``)) ?? "";
      const value = (label: string) => {
        const block = new RegExp(`^${label}:\\n\\n\`\`\`json\\n([^\`]*)\`\`\`$`, "m").exec(section)?.[1];
        return block === undefined ? section.includes(`${label}: _absent_`) && "absent" : JSON.parse(block);
      };
      return { heading: section.split("\n")[0], before: value("Before"), after: value("After") };
    };
    expect(place("/components/schemas/OverlayPage/properties/overlay")).toEqual({
      heading: expect.stringMatching(
        /^\*\*Added\*\* in \[Schema `OverlayPage` › `overlay`\]\(\.\/schemas#schema-OverlayPage\)/,
      ),
      before: "absent",
      after: { type: "array", items: { $ref: "#/components/schemas/Overlay" } },
    });
    const required = place("/components/schemas/CampaignSaved/required");
    expect(required.heading).toMatch(/^\*\*Changed\*\* in \[Schema `CampaignSaved` › required\]/);
    expect(required.before).toContain("domain");
    expect(required.after).toEqual(expect.any(Array));
    expect(required.after).not.toContain("domain");
    // Every link of the page leads to a section of the generated reference.
    const links = [...page.matchAll(/\]\(\.\/([\w-]*)#([\w-]+)\)/g)];
    expect(links.length).toBeGreaterThan(diffPlaces.length);
    for (const [link, target, anchor] of links)
      expect(readFileSync(join(reference, `${target || "index"}.md`), "utf8"), link).toContain(`{#${anchor}}`);
    // Without an overlay the page is gone again.
    await writeGeneratedPages(root, undefined);
    expect(existsSync(join(reference, "overlay.md"))).toBe(false);
  }, 120_000); // the whole site's pages generated twice: compute, not waiting

  it("contracts mock --overlay serves them: `overlay`, `campaign`, error 0 on lists", async () => {
    const port = await freePort();
    const mock = runContracts(["mock", "--api", "links", "--port", `links=${port}`, "--overlay", overlayFile]);
    try {
      await mock.waitForOutput(new RegExp(`links\\s+http://127\\.0\\.0\\.1:${port}\\b`), 60_000);
      const headers = { Authorization: `Bearer ${env.LINKS_TOKEN}`, "Content-Type": "application/json" };
      const list = (await (await fetch(`http://127.0.0.1:${port}/api/overlay`, { headers })).json()) as {
        error: unknown;
        data: Record<string, unknown>;
      };
      expect(list.error).toBe(0);
      expect(Object.keys(list.data)).toContain("overlay");
      expect(Object.keys(list.data)).not.toContain("cta");
      const added = (await (
        await fetch(`http://127.0.0.1:${port}/api/campaign/add`, {
          method: "POST",
          headers,
          body: JSON.stringify({ name: "Spring" }),
        })
      ).json()) as Record<string, unknown>;
      expect(Object.keys(added)).toContain("campaign");
      expect(Object.keys(added)).not.toContain("domain");
    } finally {
      mock.child.kill("SIGTERM");
      await mock.exit;
    }
  });

  it("types generated with the overlay type-check a client that reads `overlay` and `campaign`; the canonical types do not", async () => {
    const out = join(dir, "generated-with-overlay");
    const generate = await runToEnd(
      process.execPath,
      [join(repoRoot, "node_modules/tsx/dist/cli.mjs"), "scripts/generate.ts", "--overlay", overlayFile, "--out", out],
      repoRoot,
    );
    expect(generate.status, generate.stderr).toBe(0);
    const refused = await runToEnd(
      process.execPath,
      [
        join(repoRoot, "node_modules/tsx/dist/cli.mjs"),
        "scripts/generate.ts",
        "--overlay",
        overlayFile,
        "--out",
        "generated",
      ],
      repoRoot,
    );
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/never overwritten/);
    symlinkSync(join(repoRoot, "node_modules"), join(out, "node_modules"));
    const client = (types: string) => `import createClient from "openapi-fetch";
import type { paths } from "${types}";
const client = createClient<paths>({ baseUrl: "http://127.0.0.1:1" });
export async function overlayNames(): Promise<string[]> {
  const { data } = await client.GET("/api/overlay", {});
  if (!data || !("data" in data)) return [];
  const success: 0 | "0" = data.error;
  return [String(success), ...(data.data.overlay ?? []).map((item) => item.name)];
}
export async function campaignName(): Promise<string | undefined> {
  const { data } = await client.POST("/api/campaign/add", { body: { name: "Spring" } });
  return data && "campaign" in data ? data.campaign : undefined;
}
`;
    writeFileSync(join(out, "client.ts"), client("./types/links.js"));
    writeFileSync(join(out, "canonical-client.ts"), client(join(repoRoot, "generated/types/links.js")));
    const tsc = (file: string) =>
      runToEnd(
        process.execPath,
        [
          join(repoRoot, "node_modules/typescript/bin/tsc"),
          ...["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--target", "es2022", file],
        ],
        out,
      );
    const overlaid = await tsc("client.ts");
    expect(overlaid.status, overlaid.stdout).toBe(0);
    const canonical = await tsc("canonical-client.ts");
    expect(canonical.status).not.toBe(0);
    expect(canonical.stdout).toMatch(/overlay|campaign/);
    // The canonical files are unchanged.
    expect(readFileSync(join(repoRoot, "generated/openapi/links.json"), "utf8")).toContain('"cta"');
  }, 240_000); // a bundle's types generated and two tsc runs: compute, not waiting
});
