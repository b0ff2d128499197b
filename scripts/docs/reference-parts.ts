// Pieces every page of the reference uses: links to the downloads, note badges, front matter, HTML tables and the
// callouts of a node's quirks, gaps, assumptions and other extensions.
import { type ApiName } from "./document.js";
import type { Extensions } from "../../lib/contract/index.js";
import { code, container, jsonBlock, prose } from "./markdown.js";
import { type OperationNote } from "./operation-notes.js";

const ANNOTATION_KEYS = new Set(["x-quirk", "x-undocumented", "x-assumption", "x-codeSamples"]);

/** The standalone Redoc page of an API, as served by the site. */
export const redocHref = (api: ApiName): string => `/redoc/${api}.html`;
/** The bundled contract, offered for download. */
export const specHref = (api: ApiName): string => `/specs/${api}.json`;

const BADGE_CLASS: Record<OperationNote["kind"], string> = { quirk: "warning", gap: "info", assumption: "tip" };
const BADGE_WORDS: Record<OperationNote["kind"], [string, string]> = {
  quirk: ["quirk", "quirks"],
  gap: ["gap", "gaps"],
  assumption: ["assumption", "assumptions"],
};

/** Badges for the notes of an operation: "3 quirks", "2 gaps", "1 assumption". */
export function badges(notes: OperationNote[]): string {
  return (["quirk", "gap", "assumption"] as const)
    .map((kind) => {
      const count = notes.filter((note) => note.kind === kind).length;
      if (count === 0) return "";
      const [one, many] = BADGE_WORDS[kind];
      return `<span class="VPBadge ${BADGE_CLASS[kind]} note-badge" data-kind="${kind}">${count} ${count === 1 ? one : many}</span>`;
    })
    .filter(Boolean)
    .join(" ");
}

export const squash = (parts: string[]): string =>
  parts.filter((part, index, all) => !(part === "" && all[index - 1] === "")).join("\n");

export function frontmatter(title: string, extra: string[] = []): string[] {
  return ["---", `title: ${JSON.stringify(title)}`, ...extra, "---", ""];
}

export function htmlTable(headers: string[], rows: string[][], className: string): string {
  const body = rows
    .map((row) => `<tr>${row.map((value, i) => `<td data-label="${headers[i]}">${value}</td>`).join("")}</tr>`)
    .join("");
  return `<table class="${className}"><thead><tr>${headers.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The quirk, gaps and assumption of one node, as callouts. */
export function annotations(node: Extensions): string {
  const parts: string[] = [];
  if (typeof node["x-quirk"] === "string") parts.push(container("warning", "Quirk", prose(node["x-quirk"])));
  const gaps = (node["x-undocumented"] ?? []) as string[];
  if (gaps.length > 0) parts.push(container("info", "Not documented", gaps.map((gap) => `- ${prose(gap)}`).join("\n")));
  if (typeof node["x-assumption"] === "string")
    parts.push(container("tip", "Assumption (ours, not the provider's)", prose(node["x-assumption"])));
  return parts.join("\n\n");
}

/** Other `x-` extensions of a node (e.g. `x-rate-limit`, `x-reply-rules`), shown as they are. */
export function extensions(node: Extensions): string {
  const entries = Object.entries(node).filter(([key]) => key.startsWith("x-") && !ANNOTATION_KEYS.has(key));
  return entries.map(([key, value]) => `**${code(key)}**\n\n${jsonBlock(value)}`).join("\n\n");
}
