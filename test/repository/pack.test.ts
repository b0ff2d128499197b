// The checks `npm run pack` makes before it packs (scripts/pack.ts), on small staged packages made up here, and on
// the real manifests: a package that would break at a user's fails to pack.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importProblems, manifestProblems, type PackageManifest, packageManifests } from "../../scripts/pack.js";
import { orphanOutputs } from "../../scripts/build-if-stale.mjs";
import { repoRoot } from "../support/processes.js";

const scratch = mkdtempSync(join(tmpdir(), "contracts-pack-check-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function stage(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const manifest: PackageManifest = {
  name: "@platform/contracts",
  version: "0.1.0",
  files: ["dist"],
  exports: {
    "./links": { types: "./dist/clients/links.d.ts", default: "./dist/clients/links.js" },
    "./pay": "./dist/clients/pay.js",
    "./catalog": "./dist/clients/catalog.js",
    "./identity": "./dist/clients/identity.js",
  },
  dependencies: { "openapi-fetch": "^0.17.0" },
};

describe("npm run pack refuses a package", () => {
  it("whose browser entry reaches a Node built-in through a relative import, but not a Node-only module", () => {
    const dir = stage("node-builtin", {
      "dist/clients/links.js": 'import createClient from "openapi-fetch";\nexport { sign } from "./signer.js";\n',
      "dist/clients/signer.js":
        '// import { readFile } from "node:fs"; (a comment is no import)\nimport { createHmac } from "node:crypto";\nexport const sign = createHmac;\n',
      "dist/clients/pay.js": "export {};\n",
      "dist/clients/catalog.js": "export {};\n",
      "dist/clients/identity.js": "export {};\n",
      "dist/clients/node-nonce.js": 'import { open } from "node:fs/promises";\nexport { open };\n',
    });
    expect(importProblems(dir, manifest)).toEqual([
      "dist/clients/signer.js (loaded by @platform/contracts/links in browsers) imports node:crypto",
    ]);
  });

  it("that imports a package it does not depend on, or a file it does not ship", () => {
    const dir = stage("undeclared", {
      "dist/clients/links.js": 'export const load = () => import("yaml");\nexport * from "./missing.js";\n',
      "dist/clients/pay.js": "export {};\n",
      "dist/clients/catalog.js": "export {};\n",
      "dist/clients/identity.js": "export {};\n",
    });
    expect(importProblems(dir, manifest)).toEqual([
      "dist/clients/links.js imports yaml, which is not a dependency of @platform/contracts",
      "dist/clients/links.js imports ./missing.js, which the package does not contain",
    ]);
  });

  it("whose version or dependency ranges differ from the root package.json", () => {
    expect(
      manifestProblems(repoRoot, {
        ...manifest,
        version: "9.9.9",
        dependencies: { "openapi-fetch": "^0.9.0", leftpad: "1.0.0" },
      }),
    ).toEqual([
      expect.stringMatching(/^version 9\.9\.9 is not the root package\.json's /),
      expect.stringMatching(/^depends on openapi-fetch@\^0\.9\.0; the root package\.json tests /),
      "depends on leftpad, which the root package.json does not install",
    ]);
  });

  it("and accepts the repository's own manifests", () => {
    for (const { dir, manifest: real } of packageManifests(repoRoot))
      expect(manifestProblems(repoRoot, real), dir).toEqual([]);
  });
});

describe("npm run pack, given a compiled dist/ instead of building its own", () => {
  it("refuses a file no source produces (a deleted module's output, or an older configuration's)", () => {
    const root = stage("compiled", {
      "tsconfig.build.json": JSON.stringify({ include: ["clients", "lib"] }),
      "clients/links.ts": "export {};\n",
      "generated/openapi/links.json": "{}",
      "test/links.test.ts": "export {};\n",
      "dist/clients/links.js": "export {};\n",
      "dist/clients/links.d.ts": "export {};\n",
      "dist/generated/openapi/links.json": "{}",
      "dist/clients/removed.js": "export {};\n",
      "dist/lib/removed.d.ts": "export {};\n",
      "dist/test/links.test.js": "export {};\n",
    });
    expect(orphanOutputs(root, join(root, "dist")).sort()).toEqual([
      "clients/removed.js",
      "lib/removed.d.ts",
      "test/links.test.js",
    ]);
  });
});

/**
 * The repository paths the tools' code reads with fromPackageRoot (or bundlePath), in every module the `contracts`
 * binary and the exports reach from their sources: each call's literal leading segments (`generated/reference` of
 * `fromPackageRoot("generated", "reference", \`${api}.html\`)`), by module.
 */
function packageRootReads(entries: string[]): Map<string, string> {
  const reads = new Map<string, string>();
  const seen = new Set<string>();
  const queue = entries.map((entry) => join(repoRoot, entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    for (const match of text.matchAll(/(?:from\s*|import\(\s*)"(\.[^"]+)\.js"/g))
      queue.push(resolve(dirname(file), `${match[1]}.ts`));
    const module = relative(repoRoot, file);
    for (const call of text.matchAll(/\bfromPackageRoot\(([^)]*)\)/g)) {
      const segments: string[] = [];
      for (const argument of call[1]!.split(",").map((a) => a.trim())) {
        const literal = /^"([^"$]+)"$/.exec(argument);
        if (!literal) break;
        segments.push(literal[1]!);
      }
      if (segments.length > 0 && module !== "lib/paths.ts") reads.set(segments.join("/"), module);
    }
    if (/\bbundlePath\(/.test(text)) reads.set("generated/openapi", module);
  }
  return reads;
}

describe("the tools package", () => {
  it("ships every file its code reads beside itself (fromPackageRoot), so that none is missing from an install", () => {
    const { manifest } = packageManifests(repoRoot).find(({ dir }) => dir === "contracts-tools")!;
    const entries = [
      ...Object.values(manifest.bin ?? {}),
      ...Object.values(manifest.exports).map((target) => (typeof target === "string" ? target : target.default!)),
    ]
      .filter((target) => target.startsWith("./dist/") && target.endsWith(".js"))
      .map((target) => target.slice("./dist/".length).replace(/\.js$/, ".ts"));
    const reads = packageRootReads(entries);
    // The seed-sentence table is one of them (the file a package once lacked); the walk found the CLI's modules.
    expect([...reads.keys()]).toContain("conformance/seed-sentences.yaml");
    const shipped = (path: string) =>
      manifest.files.some((file) => path === file || path.startsWith(`${file}/`) || file.startsWith(`${path}/`));
    expect(
      [...reads].filter(([path]) => !shipped(path)).map(([path, module]) => `${path} (read by ${module})`),
    ).toEqual([]);
  });
});
