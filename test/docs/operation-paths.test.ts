// The README and the hand-written pages write endpoint paths as they are, so that a reader of the Markdown source
// (GitHub, an editor) copies commands that run; every path they write must stay a path of the contracts (issue 36).
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { listOperationsOf, loadBundle } from "../../lib/contract/index.js";
import { endpointPathProblems, endpointPaths } from "../../scripts/docs/operation-paths.js";
import { handWrittenPages } from "../../scripts/docs/pages.js";
import { repoRoot } from "../support/processes.js";

const pages = [join(repoRoot, "README.md"), ...handWrittenPages()];
const pathOf = (operationId: string): string =>
  listOperationsOf(loadBundle("identity")).find((op) => op.operationId === operationId)!.path;

describe("endpoint paths in the README and the hand-written pages", () => {
  it("every path a page writes is a path of the contracts (and the identity guide writes the sign-in paths)", () => {
    const problems = pages.flatMap((page) =>
      endpointPathProblems(readFileSync(page, "utf8"), relative(repoRoot, page)),
    );
    expect(problems).toEqual([]);
    const identity = endpointPaths(readFileSync(join(repoRoot, "docs/guide/identity.md"), "utf8")).map((p) => p.path);
    for (const operationId of ["authorize", "exchangeToken", "getJwks", "getUserInfo", "getOpenIdConfiguration"])
      expect(identity).toContain(pathOf(operationId));
  });

  it("no page keeps an `[[op:<operationId>]]` placeholder, which only the built site would fill in", () => {
    for (const page of pages) expect(readFileSync(page, "utf8"), relative(repoRoot, page)).not.toMatch(/\[\[op:/);
  });

  it("a path the contracts do not have fails, named by page, line and text, in URLs, prose, diagrams and code spans", () => {
    const markdown = [
      `curl http://127.0.0.1:4020${pathOf("getUserInfo")}`,
      "curl http://127.0.0.1:4020/api/user-info",
      "Then `POST /api/domain/add` and `GET /api/domain/add`.",
      "  App->>IdP: POST /api/login/oauth/token<br/>code",
      "the key from `/.well-known/jwk`, the page [gaps](/reference/identity/gaps), `/_sandbox/pay/1`",
      `curl http://127.0.0.1:4021${pathOf("getUserInfo")}`,
      "An error reads `GET /api/campaigns: fetch failed`, or `GET /api/campaign: fetch failed`.",
    ].join("\n");
    expect(endpointPathProblems(markdown, "docs/guide/broken.md")).toEqual([
      "docs/guide/broken.md:2: http://127.0.0.1:4020/api/user-info: no operation of identity has this path",
      "docs/guide/broken.md:3: GET /api/domain/add: no operation of any contract has this path",
      "docs/guide/broken.md:4: POST /api/login/oauth/token: no operation of any contract has this path",
      "docs/guide/broken.md:5: `/.well-known/jwk`: no operation of any contract has this path",
      `docs/guide/broken.md:6: http://127.0.0.1:4021${pathOf("getUserInfo")}: no operation of links has this path`,
      "docs/guide/broken.md:7: GET /api/campaign: no operation of any contract has this path",
    ]);
  });
});
