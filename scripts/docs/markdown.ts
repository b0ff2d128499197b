// Markdown building blocks for the generated docs pages. Text from the specs is CommonMark; VitePress compiles each
// page into a Vue template, so raw `<tag>`-like text outside code must be escaped or Vue would read it as an element.

const CODE_SPAN = /(`+)[\s\S]*?\1/g;

/** Spec prose made safe for a VitePress page: `<` outside code spans and fences becomes `&lt;`. */
export function prose(text: string | undefined): string {
  if (!text) return "";
  let inFence = false;
  return text
    .trimEnd()
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence || /^\s*(```|~~~)/.test(line)) return line;
      let result = "";
      let last = 0;
      for (const match of line.matchAll(CODE_SPAN)) {
        result += escapeAngles(line.slice(last, match.index)) + match[0];
        last = match.index + match[0].length;
      }
      return result + escapeAngles(line.slice(last));
    })
    .join("\n");
}

function escapeAngles(text: string): string {
  return text.replace(/<(?!https?:\/\/[^\s>]+>)/g, "&lt;");
}

/** Prose for one table cell: one line, pipes escaped. */
export function cell(text: string | undefined): string {
  return prose(text)
    .replace(/\s*\n\s*/g, " ")
    .replaceAll("|", "\\|");
}

/** Inline code that survives backticks inside the value. */
export function code(value: string): string {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = value.startsWith("`") || value.endsWith("`") ? " " : "";
  return `${fence}${pad}${value}${pad}${fence}`;
}

export function fenced(language: string, content: string): string {
  const longest = Math.max(2, ...[...content.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${content.trimEnd()}\n${fence}`;
}

export function jsonBlock(value: unknown): string {
  return fenced("json", JSON.stringify(value, null, 2));
}

/** A GitHub-flavoured table; cells must already be single-line markdown. */
export function table(headers: string[], rows: string[][]): string {
  return [
    `| ${headers.join(" | ")} |`,
    `| ${headers.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
}

/** A VitePress custom container (tip, info, warning, danger, details). */
export function container(kind: string, title: string, body: string): string {
  return `::: ${kind} ${title}\n${body.trimEnd()}\n:::`;
}
