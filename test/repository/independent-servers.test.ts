// Issue 47: a false alarm is proven on a server written for the purpose, sharing no code with the sandbox; a sandbox
// bug carried into the server that judges it would hide the very alarm. The oracles and the stock oidc-provider reach
// no module the sandbox reaches; the fault provider, whose correct choices stand for false alarms 1, 2 and 6, reaches
// none of mock/ (it shares the contract reader lib/contract/, which reads the paths and serves no answer).
// Type-only imports are left out: they are erased, no code of theirs runs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/processes.js";

/** The relative modules a file imports for their values (not `import type`, nor imports of types only). */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typesOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings)
          ? clause.namedBindings.elements.every((element) => element.isTypeOnly)
          : false);
      if (!typesOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith("."));
}

/** Every repository file reached from `roots` through value imports, relative to the repository. */
function closure(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = roots.map((root) => resolve(repoRoot, root));
  for (let file = stack.pop(); file; file = stack.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith(".ts")) continue;
    for (const specifier of valueImports(file)) {
      const target = resolve(dirname(file), specifier.replace(/\.js$/, ".ts"));
      const found = [target, join(target, "index.ts"), resolve(dirname(file), specifier)].find(existsSync);
      expect(found, `${relative(repoRoot, file)} imports ${specifier}`).toBeDefined();
      stack.push(found!);
    }
  }
  return new Set([...seen].map((file) => relative(repoRoot, file)));
}

const sandbox = closure(
  readdirSync(join(repoRoot, "mock/sandbox"))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `mock/sandbox/${name}`),
);

describe("the servers that prove false alarms share no code with the sandbox", () => {
  it("finds the sandbox's own modules (so that an empty intersection means something)", () => {
    expect(sandbox).toContain("mock/sandbox/server.ts");
    expect(sandbox).toContain("lib/contract/index.ts");
  });

  it.each([
    "conformance/oracle/links.ts",
    "conformance/oracle/catalog.ts",
    "conformance/oracle/pay.ts",
    "test/support/stock-oidc-provider.ts",
  ])("%s reaches no module the sandbox reaches", (root) => {
    expect([...closure([root])].filter((file) => sandbox.has(file))).toEqual([]);
  });

  it("the fault provider reaches nothing under mock/", () => {
    const reached = [...closure(["conformance/fault-servers/identity.ts"])];
    expect(reached).toContain("conformance/fault-servers/identity-endpoints.ts");
    expect(reached.filter((file) => file.startsWith("mock/"))).toEqual([]);
  });
});
