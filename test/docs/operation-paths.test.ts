// Hand-written pages name endpoints as `[[op:<operationId>]]`; the path comes from the bundles (issue 16). The built
// page and the search index are checked in site-content.test.ts; here the substitution itself and every page's tokens.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { listOperationsOf, loadBundle } from "../../lib/contract/index.js";
import { OPERATION_TOKEN, withOperationPaths } from "../../scripts/docs/operation-paths.js";
import { handWrittenPages } from "../../scripts/docs/pages.js";
import { repoRoot } from "../support/processes.js";
import { extractSamples } from "./support/samples.js";

const pathOf = (operationId: string): string =>
  listOperationsOf(loadBundle("identity")).find((op) => op.operationId === operationId)!.path;

describe("[[op:<operationId>]] in the hand-written pages", () => {
  it("becomes the operation's path from the bundle in prose, code fences and mermaid diagrams", () => {
    const markdown = [
      "Call `[[op:getUserInfo]]`.",
      "```sh",
      "curl http://127.0.0.1:4020[[op:getJwks]]",
      "```",
      "```mermaid",
      "sequenceDiagram",
      "  A->>B: POST [[op:exchangeToken]]",
      "```",
    ].join("\n");
    const result = withOperationPaths(markdown, "page.md");
    expect(result).toContain(`Call \`${pathOf("getUserInfo")}\`.`);
    expect(result).toContain(`curl http://127.0.0.1:4020${pathOf("getJwks")}`);
    expect(result).toContain(`POST ${pathOf("exchangeToken")}`);
    expect(result).not.toContain("[[op:");
  });

  it("fails loudly, naming the page, line and token, on an unknown operationId", () => {
    expect(() => withOperationPaths("fine\nGET [[op:getUserInfoo]]", "docs/guide/broken.md")).toThrow(
      /^docs\/guide\/broken\.md:2: \[\[op:getUserInfoo\]\]: no operation of any bundle has this operationId$/,
    );
  });

  it("the docs tests read the samples as the site shows them", () => {
    const [sample] = extractSamples("docs/x.md", "```sh\ncurl http://127.0.0.1:4020[[op:getUserInfo]]\n```");
    expect(sample!.code).toBe(`curl http://127.0.0.1:4020${pathOf("getUserInfo")}`);
  });

  it("every token on every hand-written page names a known operation (the identity guide uses them)", () => {
    const tokens = handWrittenPages().flatMap((page) => {
      const markdown = readFileSync(page, "utf8");
      expect(() => withOperationPaths(markdown, relative(repoRoot, page))).not.toThrow();
      return [...markdown.matchAll(OPERATION_TOKEN)].map((match) => match[1]);
    });
    expect(tokens).toEqual(
      expect.arrayContaining(["authorize", "exchangeToken", "getJwks", "getUserInfo", "getOpenIdConfiguration"]),
    );
  });
});
