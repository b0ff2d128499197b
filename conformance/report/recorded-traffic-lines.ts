// The passive part of the console and JUnit reports: where the traffic came from, and every entry that was not
// judged against an operation (a gap), with its reason. Nothing recorded is left out of a report.
import type { TestCase } from "./junit.js";
import { ELSEWHERE, type PassiveGap, type PassiveSummary } from "../model/recorded-traffic.js";

/** The console lines of a passive run (empty for an active one). */
export function passiveConsoleLines(passive: PassiveSummary | undefined): string[] {
  if (!passive) return [];
  const lines = [
    "",
    `Recorded traffic: ${passive.source}: ${passive.entries} entries, ${passive.judged} judged against an operation, ${passive.gaps.length} not (gaps)`,
  ];
  // The entries at other addresses (a web page's own files, other APIs) are counted per address here; the JSON,
  // JUnit and HTML reports list each one.
  const elsewhere = new Map<string, number>();
  for (const gap of passive.gaps) {
    if (gap.reason.startsWith(ELSEWHERE)) {
      const origin = URL.canParse(gap.url) ? new URL(gap.url).origin : gap.url;
      elsewhere.set(origin, (elsewhere.get(origin) ?? 0) + 1);
      continue;
    }
    lines.push(
      `  ○ ${gap.entry !== undefined ? `entry ${gap.entry}: ` : ""}${gap.method} ${gap.url}${gap.status !== undefined ? ` (${gap.status})` : ""}: ${gap.reason}`,
    );
  }
  if (elsewhere.size > 0) {
    const first = passive.gaps.find((gap) => gap.reason.startsWith(ELSEWHERE))!;
    lines.push(
      `  ○ ${[...elsewhere.values()].reduce((a, b) => a + b, 0)} entries at other addresses than ${first.reason.slice(ELSEWHERE.length).split("; ")[0]}: ${[...elsewhere].map(([origin, count]) => `${origin} (${count})`).join(", ")}`,
    );
  }
  for (const note of passive.notes ?? [])
    lines.push(
      `  · ${note.entry !== undefined ? `entry ${note.entry}: ` : ""}${note.method} ${note.url}: judged; ${note.reason}`,
    );
  return lines;
}

/** One skipped JUnit test case per gap, so that CI dashboards list them too. */
export function passiveJunitCases(api: string, passive: PassiveSummary | undefined): TestCase[] {
  return (passive?.gaps ?? []).map((gap) => ({
    classname: `conform.${api}.gaps`,
    name: `${gap.entry !== undefined ? `entry ${gap.entry} ` : ""}${gap.method} ${gap.url}`,
    outcome: { type: "skipped", message: `not judged: ${gap.reason}` },
  }));
}

/** The HTML report's section of a passive run: where the traffic came from and every entry not judged. */
export function passiveHtml(passive: PassiveSummary | undefined, text: (value: string) => string): string {
  if (!passive) return "";
  const line = (gap: PassiveGap) =>
    `<li>${text(`${gap.entry !== undefined ? `entry ${gap.entry}: ` : ""}${gap.method} ${gap.url}${gap.status !== undefined ? ` (${gap.status})` : ""}`)}: ${text(gap.reason)}</li>`;
  const notes = passive.notes ?? [];
  return `<h2 id="recorded-traffic">Recorded traffic</h2>
<p>${text(`${passive.source}: ${passive.entries} entries, ${passive.judged} judged against an operation, ${passive.gaps.length} not (gaps)`)}</p>
${passive.gaps.length ? `<h3>Gaps (${passive.gaps.length})</h3><ul>${passive.gaps.map(line).join("\n")}</ul>` : ""}
${notes.length ? `<h3>Judged with a note (${notes.length})</h3><ul>${notes.map(line).join("\n")}</ul>` : ""}`;
}
