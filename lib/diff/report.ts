// The human report of `contracts diff` (the JSON report is the DiffResult itself).
import type { Change, DiffResult } from "./changes.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function describe(change: Change): string {
  const [first, ...others] = change.operations;
  const heading = [first, change.where].filter(Boolean).join(": ");
  const reader = change.direction === "sent" ? " (you send)" : change.direction === "received" ? " (you receive)" : "";
  const lines = [`  [${change.rule}] ${heading || change.pointer}${reader}`, `      ${change.message}`];
  if (others.length > 0) lines.push(`      also in: ${others.join(", ")}`);
  return lines.join("\n");
}

export function formatReport(result: DiffResult): string {
  const { before, after, changes } = result;
  const title = before.title === after.title ? before.title : `${before.title} -> ${after.title}`;
  const lines = [`${title} ${before.version} -> ${after.version}`];
  if (changes.length === 0) return `${lines[0]}\nNo changes to the contract.\n`;
  const breaking = changes.filter((c) => c.breaking);
  const safe = changes.filter((c) => !c.breaking);
  lines.push(`${plural(breaking.length, "breaking change")}, ${plural(safe.length, "non-breaking change")}`);
  if (breaking.length > 0) lines.push("", "Breaking:", ...breaking.map(describe));
  if (safe.length > 0) lines.push("", "Non-breaking:", ...safe.map(describe));
  return `${lines.join("\n")}\n`;
}
