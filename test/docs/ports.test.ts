// The docs site's servers have ports of their own (package.json's docs:dev and docs:preview), so that the site can
// run beside everything the guides start: the identity sample's application on the demo client's redirect_uri
// (127.0.0.1:5173, which `vitepress dev` used to take first, and the sample then failed with EADDRINUSE), the mocks,
// the sandbox, the proxy and the other samples' servers; and beside `npm test`, whose fixed ports lie in blocks.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { API_NAMES } from "../../lib/contract/index.js";
import { DEFAULT_MOCK_PORTS } from "../../mock/prism.js";
import { DEFAULT_CONFIG } from "../../mock/sandbox/default-config.js";
import { DEFAULT_SANDBOX_PORTS } from "../../mock/sandbox/http.js";
import { MAX_WORKERS } from "../support/ports.js";
import { repoRoot } from "../support/processes.js";

const read = (path: string) => readFileSync(join(repoRoot, path), "utf8");
const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;

function docsPort(script: "docs:dev" | "docs:preview"): number {
  const port = /--port (\d+)/.exec(scripts[script] ?? "")?.[1];
  if (!port) throw new Error(`package.json's ${script} names no --port: ${scripts[script]}`);
  return Number(port);
}
const DOCS = { dev: docsPort("docs:dev"), preview: docsPort("docs:preview") };
const docsUrls = Object.values(DOCS).map((port) => `http://localhost:${port}`);

/** The ports of loopback URLs and of `.listen(<port>` calls in a text. */
function portsIn(text: string): number[] {
  const urls = [...text.matchAll(/\b(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)/g)].map((m) => Number(m[1]));
  const listens = [...text.matchAll(/\.listen\((\d+)/g)].map((m) => Number(m[1]));
  return [...urls, ...listens];
}

const GUIDES = ["README.md", ...readdirSync(join(repoRoot, "docs/guide")).map((name) => `docs/guide/${name}`)];

describe("the docs site's ports", () => {
  it("docs:dev keeps its port (--strictPort) rather than moving to another, where the guides would not find it", () => {
    expect(scripts["docs:dev"]).toContain("--strictPort");
    expect(DOCS.dev).not.toBe(DOCS.preview);
  });

  it("are no port of a registered redirect_uri or post_logout_redirect_uri, in the sandbox or in the contract", () => {
    const registered = DEFAULT_CONFIG.identity.clients.flatMap((client) => [
      ...client.redirect_uris,
      ...(client.post_logout_redirect_uris ?? []),
    ]);
    const redirectPorts = new Set([
      ...registered.map((uri) => Number(new URL(uri).port)),
      ...portsIn(read("generated/openapi/identity.json")),
    ]);
    expect(redirectPorts).toContain(5173);
    for (const port of Object.values(DOCS)) expect(redirectPorts).not.toContain(port);
  });

  it("are no port of the mocks, the sandbox or a server the README and the guides start", () => {
    // The guides name the docs site's own addresses too: those are not servers they start.
    const withoutDocs = (text: string) => docsUrls.reduce((rest, url) => rest.replaceAll(url, ""), text);
    const taken = new Set([
      ...API_NAMES.flatMap((api) => [DEFAULT_MOCK_PORTS[api], DEFAULT_SANDBOX_PORTS[api]]),
      ...GUIDES.flatMap((path) => portsIn(withoutDocs(read(path)))),
    ]);
    expect([...taken]).toEqual(expect.arrayContaining([5173, 8080, 4031]));
    for (const port of Object.values(DOCS)) expect(taken).not.toContain(port);
  });

  it("lie outside the blocks of the tests' fixed ports (test/support/ports.ts)", () => {
    const lowest = 4100;
    const highest = 4999 + 1000 * (MAX_WORKERS - 1);
    for (const port of Object.values(DOCS)) expect(port < lowest || port > highest, String(port)).toBe(true);
  });

  it("are the addresses the README and the docs-site guide give", () => {
    for (const path of ["README.md", "docs/guide/docs-site.md"]) {
      for (const url of docsUrls) expect(read(path), path).toContain(url);
    }
  });
});
