// The kinds of case, as the coverage matrix names them: what the judge files each arrival under and the report's
// columns. A mutation's kind is what it breaks, without the values (`longer than maxLength`).
import type { AuthMode } from "../apis.js";
import type { CaseKind, RequestCase } from "../model/cases.js";

/** The kind of a mutation from its description (`body /name: longer than maxLength 40` → `longer than maxLength`). */
export function mutationKind(description: string): string {
  const what = description.includes(": ") ? description.slice(description.indexOf(": ") + 2) : description;
  return what
    .replace(/\s*\(.*$/, "")
    .replace(/^(does not match the pattern|not one of|not the constant) .*$/, "$1")
    .replace(/\s+-?\d[\d.e+-]*$/, "")
    .trim();
}

/** The kind of a case as sent with these credentials (`probe`: a method the path does not document). */
export function caseKind(requestCase: RequestCase, auth: AuthMode, probe: boolean): CaseKind {
  if (probe) return "other method";
  if (auth === "none") return "no credentials";
  if (auth === "wrong") return "wrong credentials";
  if (auth === "read-only") return "narrower credentials";
  switch (requestCase.origin) {
    case "invalid":
      return `mutation: ${mutationKind(requestCase.violation?.description ?? requestCase.label)}`;
    case "random":
      return "random data";
    case "sequence":
      return "sequence step";
    default:
      return requestCase.origin;
  }
}
