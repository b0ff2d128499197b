// Writes docs/guide/seed-sentences.md from conformance/seed-sentences.yaml (the seed-sentence table).
// test/conformance/seed-sentences.test.ts fails when the page is not what this writes.
import { writeFileSync } from "node:fs";
import { readSeedSentenceTable, renderSeedSentencePage } from "../conformance/seed-sentences.js";
import { fromPackageRoot } from "../lib/paths.js";

const page = fromPackageRoot("docs", "guide", "seed-sentences.md");
writeFileSync(page, renderSeedSentencePage(readSeedSentenceTable()));
console.log(`wrote ${page}`);
