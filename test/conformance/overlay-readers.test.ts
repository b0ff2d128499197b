// The other readers of a drifted links deployment's recorded overlay (test/support/drifted-links.ts): `contracts
// overlay diff`, the docs site's page and pointers, `contracts mock --overlay` and the types generated with it, which
// type-check a client that reads the deployment's shapes. Real CLI for record, mock and generate, real tsc.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { overlayDiff } from "../../conformance/overlay/diff.js";
import { loadOverlay, type OverlayDocument } from "../../lib/contract/overlay.js";
import { docsOverlay, referenceNavigation, writeGeneratedPages } from "../../scripts/docs/pages.js";
import { readBundle } from "../../scripts/docs/document.js";
import { renderReferencePages } from "../../scripts/docs/reference-page.js";
import { driftedLinksFixture } from "../support/drifted-links.js";
import { freePort } from "../support/ports.js";
import { repoRoot, runContracts, runToEnd } from "../support/processes.js";

const { env, dir, overlayFile, recorded } = driftedLinksFixture();
let overlay: OverlayDocument;
beforeAll(async () => {
  ({ overlay } = await recorded());
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
    // The 500 HTML page, a response of the operations it answered.
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\+ \/paths\/~1api~1channel~1\{id\}\/get\/responses\/500: \{.*"text\/html":\{"schema":\{"type":"string"\}\}/,
      ),
    );
  });

  it("the docs site shows it as a page of the links reference: the operations, linked to their sections, and each place before and after", async () => {
    const root = join(dir, "docs");
    const overlaySource = docsOverlay(overlayFile);
    await writeGeneratedPages(root, overlaySource);
    const reference = join(root, "reference", "links");
    const page = readFileSync(join(reference, "deployment.md"), "utf8");
    // Its title is not "overlay", which links readers know as the API's resource (the Overlays page beside it).
    expect(referenceNavigation("links", overlaySource).at(-1)).toEqual({
      link: "/reference/links/deployment",
      text: "Deployment differences",
    });
    expect(referenceNavigation("links", overlaySource).map((entry) => entry.text)).toContain("Overlays");
    expect(referenceNavigation("pay", overlaySource).map((entry) => entry.text)).not.toContain(
      "Deployment differences",
    );
    // The pages of the operations it changes show the contract and point to it; the others do not.
    expect(readFileSync(join(reference, "overlays.md"), "utf8")).toMatch(
      /::: warning The deployment this site describes differs\nIts overlay changes `listOverlays`: .*\[Deployment differences\]\(\.\/deployment\)/,
    );
    const unchanged = renderReferencePages("links", readBundle("links"));
    for (const markdown of unchanged.values()) expect(markdown).not.toContain("The deployment this site describes");
    expect(page).toContain(`generated with the overlay \`links.overlay.yaml\` (${overlay.info.title}`);
    // The same changes as `contracts overlay diff`: its ten operations (nine change shape, addChannel only its
    // x-known-behaviours), and one section per changed place.
    const rows = [...page.matchAll(/^\| \[`(\w+)`\]\(\.\/([\w-]+)#(\w+)\) \| (changed|removed) \|$/gm)];
    expect(rows.map((row) => row[1])).toEqual(expect.arrayContaining(["listOverlays", "addCampaign", "getAccount"]));
    expect(rows).toHaveLength(10);
    // Each changed operation's own page names it in the warning that links to this page.
    for (const [, operationId, target] of rows) {
      const markdown = readFileSync(join(reference, `${target}.md`), "utf8");
      const warning = /::: warning The deployment this site describes differs\n(Its overlay changes .*)/.exec(markdown);
      expect(warning?.[1], operationId).toContain(`\`${operationId}\``);
      expect(warning?.[1], operationId).toContain("[Deployment differences](./deployment)");
    }
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
      // The one page of overlays is the last: the deployment's `nextpage` there is null, not the contract's 1.
      expect(list.data).toMatchObject({ currentpage: 1, maxpage: 1, nextpage: null });
      // Asked for the 500 the deployment answers a path id with, as a browser asks, it serves the recorded HTML
      // response beside the documented JSON error.
      const page = await fetch(`http://127.0.0.1:${port}/api/channel/1`, {
        headers: { ...headers, Prefer: "code=500", Accept: "text/html" },
      });
      expect(page.status).toBe(500);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
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
