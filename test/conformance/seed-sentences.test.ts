// The seed-sentence table (conformance/seed-sentences.yaml) against the seeds, the checks and the fault table: every
// sentence of a seed has its row, in order; a behavioural row names a check and fault servers that check catches,
// or why it cannot be tested from outside; the docs page is its rendering. The seeds are read where CI has them,
// beside the clone (../shared/seeds), or from SEEDS_DIR; the table's own copy of the sentences is checked always.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isCheckName } from "../../conformance/model/check-registry.js";
import { FAULT_SERVER_CREDENTIALS, FAULTS } from "../../conformance/fault-servers/faults.js";
import { IDENTITY_FAULT_CASES } from "../../conformance/fault-servers/identity-faults.js";
import {
  readSeedSentenceTable,
  renderSeedSentencePage,
  type SeedName,
  seedSentences,
} from "../../conformance/seed-sentences.js";
import { conformInProcess } from "../support/conform.js";
import { repoRoot } from "../support/processes.js";

const table = readSeedSentenceTable();
const faults = new Map([...FAULTS, ...IDENTITY_FAULT_CASES].map((fault) => [fault.name, fault.check]));
const seedsDir = process.env.SEEDS_DIR ?? join(repoRoot, "..", "shared", "seeds");
const seedNames = Object.keys(table.files) as SeedName[];

describe("the seed-sentence table", () => {
  it("gives every behavioural sentence a check with fault servers it catches, or a reason", () => {
    const problems: string[] = [];
    for (const row of table.sentences) {
      const where = `${row.seed}: ${row.text}`;
      if (!["behaviour", "shape", "not-shown", "context"].includes(row.kind))
        problems.push(`${where}: kind ${row.kind}`);
      if (row.kind !== "behaviour") {
        if (row.check || row.faults || row.untestable) problems.push(`${where}: only behaviour has a check or reason`);
        continue;
      }
      if (row.untestable !== undefined) {
        if (row.untestable.trim() === "" || row.check) problems.push(`${where}: a reason, or a check, not both`);
        continue;
      }
      if (!row.check || !isCheckName(row.check)) problems.push(`${where}: no check (${row.check})`);
      if (!row.faults?.length) problems.push(`${where}: no fault server proves ${row.check} catches it`);
      for (const fault of row.faults ?? [])
        if (faults.get(fault) !== row.check)
          problems.push(
            `${where}: fault ${fault} is ${faults.has(fault) ? `caught by ${faults.get(fault)}` : "unknown"}`,
          );
    }
    expect(problems).toEqual([]);
  });

  it("calls behaviour what reads like behaviour: a sentence that promises, refuses or requires is no shape or context", () => {
    const promises = /\b(must|mandatory|unique|returns|refused|rejected|denied|fails|always|equals|unchanged)\b/i;
    const hidden = table.sentences.filter(
      (row) => promises.test(row.text) && (row.kind === "shape" || row.kind === "context"),
    );
    expect(hidden.map((row) => row.text)).toEqual([]);
  });

  it("has the four behaviours the issue found unchecked, each with its check and fault proof", () => {
    const row = (fragment: string) => table.sentences.find((s) => s.text.includes(fragment))!;
    expect(row("PUT | /api/domain/:id/update")).toMatchObject({ check: "update_visible_on_read" });
    expect(row("optional query parameters limit")).toMatchObject({
      check: "list_parameters_honoured",
      faults: ["links-ignores-limit", "links-currentpage-from-zero", "links-currentpage-always-1"],
    });
    expect(row("Idempotency-Key is mandatory")).toMatchObject({
      check: "negative_data_rejection",
      faults: ["catalog-idempotency-key-optional"],
    });
    expect(row("seen together with date_payed null")).toMatchObject({ check: "seen_together" });
  });

  it("is rendered as docs/guide/seed-sentences.md (npx tsx scripts/seed-sentences.ts)", () => {
    const page = readFileSync(join(repoRoot, "docs", "guide", "seed-sentences.md"), "utf8");
    expect(page).toBe(renderSeedSentencePage(table));
  });

  it("is an error that names it when missing: the reports and overlay record need it (the packed tools ship it)", () => {
    const missing = join(repoRoot, "conformance", "no-such-seed-sentences.yaml");
    expect(() => readSeedSentenceTable(missing)).toThrow(
      `the seed-sentence table ${missing} is missing: this installation of the contracts tools is incomplete`,
    );
  });

  it.skipIf(!existsSync(seedsDir))(`has every sentence of the seeds in ${seedsDir}, in order, and no other`, () => {
    const files = readdirSync(seedsDir).filter((name) => name.endsWith(".txt"));
    expect(files.sort()).toEqual(Object.values(table.files).sort());
    for (const seed of seedNames) {
      const sentences = seedSentences(readFileSync(join(seedsDir, table.files[seed]), "utf8"));
      const rows = table.sentences.filter((row) => row.seed === seed).map((row) => row.text);
      const missing = sentences.filter((sentence) => !rows.includes(sentence));
      expect(missing, `${seed}: sentences without a row`).toEqual([]);
      expect(rows, `${seed}: rows in the seed's order, each a sentence of it`).toEqual(sentences);
    }
  });
});

describe("a relation the seed reports only as seen", () => {
  it("broken, is a warning that names the assumption, not a failure (a failure under --strict: faults.test.ts)", async () => {
    const fault = FAULTS.find((f) => f.name === "pay-paid-order-without-date")!;
    const server = await fault.start();
    try {
      const args = fault.args.filter((arg) => arg !== "--strict");
      const { code, report, output } = await conformInProcess(
        ["pay", "--base-url", server.url, "--max-examples", "3", "--seed", "7", "--rate-limit", "1000/s", ...args],
        { ...FAULT_SERVER_CREDENTIALS },
      );
      expect(report.failures, output).toEqual([]);
      expect(code).toBe(0);
      const warning = report.warnings.find((w) => w.check === "seen_together");
      expect(warning?.operationId).toBe("listOrders");
      expect(warning?.message).toMatch(/status 1 has date_payed null/);
      expect(warning?.assumption).toMatch(/only seen status 0 with date_payed null/);
    } finally {
      await server.close();
    }
  });
});
