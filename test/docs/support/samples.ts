// The code samples of the hand-written docs pages and the README: fenced blocks extracted with their page and line, so
// that tests can compile the TypeScript ones against the real clients and check the curl ones against the contracts.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { handWrittenPages } from "../../../scripts/docs/pages.js";
import { repoRoot } from "../../support/processes.js";

export interface Sample {
  /** Page path relative to the repository, e.g. docs/guide/links.md. */
  page: string;
  /** 1-based line of the first line of code (after the opening fence). */
  line: number;
  language: string;
  code: string;
}

/** The fenced samples of a page, as a reader copies them from the Markdown source. */
export function extractSamples(page: string, markdown = readFileSync(page, "utf8")): Sample[] {
  const samples: Sample[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i]!.match(/^(`{3,}|~{3,})\s*([\w-]*)/);
    if (!open) continue;
    const fence = open[1]!;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end]!.startsWith(fence)) end++;
    samples.push({
      page: relative(repoRoot, page),
      line: start + 1,
      language: open[2] ?? "",
      code: lines.slice(start, end).join("\n"),
    });
    i = end;
  }
  return samples;
}

/** The samples of the hand-written docs pages and of the README, the repository's front door. */
export function allSamples(): Sample[] {
  return [join(repoRoot, "README.md"), ...handWrittenPages()].flatMap((page) => extractSamples(page));
}
