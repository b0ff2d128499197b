// The seed-sentence table (conformance/seed-sentences.yaml): every sentence of the three seeds, with what it is and,
// for a sentence that states behaviour, the check that tests it and the fault servers that prove the check catches
// a provider breaking it, or why it cannot be tested from outside. test/conformance/seed-sentences.test.ts holds it
// to the seeds (when they are beside the clone) and to the checks and fault table; docs/guide/seed-sentences.md is
// its rendering (`npx tsx scripts/seed-sentences.ts` writes it).
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { fromPackageRoot } from "../lib/paths.js";

export type SeedName = "identity" | "links" | "commerce";

/**
 * - behaviour: what the provider does (a write's effect, a parameter's meaning, a refusal, a header, a relation);
 *   it names a `check` and the `faults` that break it, or says why it is `untestable` from outside.
 * - shape: a field, a type, an endpoint or an envelope: the contract encodes it and the schema checks judge it.
 * - not-shown: the seed says it does not show something: the contract marks it x-undocumented.
 * - context: prose about the service or its users that states nothing a provider's answers could break.
 */
export type SentenceKind = "behaviour" | "shape" | "not-shown" | "context";

export interface SeedSentence {
  seed: SeedName;
  text: string;
  kind: SentenceKind;
  check?: string;
  faults?: string[];
  untestable?: string;
  /** Why the check judges it as a warning (an x-assumption of the contract), not a failure. */
  assumption?: string;
  note?: string;
}

export interface SeedSentenceTable {
  /** The seed files the sentences come from, by name. */
  files: Record<SeedName, string>;
  sentences: SeedSentence[];
}

export const SEED_SENTENCE_TABLE = fromPackageRoot("conformance", "seed-sentences.yaml");

/**
 * The table at `path`. The reports (`breaks:` lines) and `contracts overlay record` (x-seed-sentence) need it, so a
 * missing table is an error that names it and says the installation is incomplete, not a bare ENOENT.
 */
export function readSeedSentenceTable(path = SEED_SENTENCE_TABLE): SeedSentenceTable {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new Error(
      `the seed-sentence table ${path} is missing: this installation of the contracts tools is incomplete (reinstall it)`,
      { cause: error },
    );
  }
  return parse(text) as SeedSentenceTable;
}

/**
 * The sentences of a seed, in order: each table row (not the header rows and rules) is one, and prose and list items
 * are split after a full stop followed by a capital. Headings are titles, not sentences.
 */
export function seedSentences(text: string): string[] {
  const lines = text.split("\n").map((line) => line.trim());
  const sentences: string[] = [];
  lines.forEach((line, index) => {
    if (line === "" || line.startsWith("#")) return;
    if (line.startsWith("|")) {
      const next = lines[index + 1] ?? "";
      if (/^\|[-| ]+\|$/.test(line) || /^\|[-| ]+\|$/.test(next)) return; // a rule, or the header above one
      sentences.push(line);
      return;
    }
    const prose = line.replace(/^(?:[-*]|\d+\.)\s+/, "");
    sentences.push(...prose.split(/(?<=\.)\s+(?=[A-Z])/).map((s) => s.trim()));
  });
  return sentences.filter((s) => s !== "");
}

const SEED_TITLES: Record<SeedName, string> = {
  identity: "Identity service (OpenID Connect provider)",
  links: "Link-management API",
  commerce: "Commerce APIs (seller catalog and payment gateway)",
};

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * The docs page: per seed, the behavioural sentences with their checks and faults or reasons, then a count of the rest.
 */
export function renderSeedSentencePage(table: SeedSentenceTable): string {
  const parts = [
    "# What the seeds say, and what checks it",
    "",
    "<!-- Generated from conformance/seed-sentences.yaml by `npx tsx scripts/seed-sentences.ts`; do not edit. -->",
    "",
    "Every sentence of the three seeds is in `conformance/seed-sentences.yaml`, with what it is. A sentence that",
    "states behaviour names the `contracts conform` check that tests it and the fault servers",
    "(`conformance/fault-servers/`) that break exactly that sentence and must be caught, or says why it cannot be",
    "tested from outside. Fields, types and endpoints (shape) are judged by the schema checks against the contract;",
    "what a seed says it does not show is marked `x-undocumented` there. `test/conformance/seed-sentences.test.ts`",
    "fails when a sentence of a seed has no row, or a behavioural row has neither a check with a fault proof nor a",
    "reason.",
    "",
  ];
  for (const seed of Object.keys(SEED_TITLES) as SeedName[]) {
    const rows = table.sentences.filter((s) => s.seed === seed);
    const behaviour = rows.filter((s) => s.kind === "behaviour");
    const count = (kind: SentenceKind) => rows.filter((s) => s.kind === kind).length;
    parts.push(`## ${SEED_TITLES[seed]}`, "");
    parts.push(
      `${rows.length} sentences: ${behaviour.length} state behaviour, ${count("shape")} shape, ` +
        `${count("not-shown")} say what is not shown, ${count("context")} context.`,
      "",
      "| Sentence | Check | Fault proofs, or why it is not tested |",
      "|---|---|---|",
    );
    for (const row of behaviour) {
      const check = row.check ? `\`${row.check}\`${row.assumption ? " (warning: x-assumption)" : ""}` : "-";
      const proof = row.faults?.length ? row.faults.map((fault) => `\`${fault}\``).join(", ") : (row.untestable ?? "");
      const note = row.note ? `${proof ? "; " : ""}${row.note}` : "";
      parts.push(`| ${cell(row.text)} | ${check} | ${cell(proof + note)} |`);
    }
    parts.push("");
  }
  return `${parts.join("\n").trimEnd()}\n`;
}
