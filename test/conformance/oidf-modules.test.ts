// The guide's table of the OpenID Foundation modules (docs/guide/identity-conformance.md, "Every module of the three
// plans"): every module of the Basic OP, Config OP and RP-Initiated Logout OP plans is listed once, and a module the
// table calls covered names only checks of the registry; one that names none says "does not apply" or "not covered
// yet" and why.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isCheckName } from "../../conformance/model/check-registry.js";

/** The modules of each plan, from OIDCC{Basic,Config,RpInitiatedLogout}TestPlan.java (conformance-suite 12f2a4d). */
const PLANS: Record<string, readonly string[]> = {
  "Basic OP": [
    "oidcc-server",
    "oidcc-response-type-missing",
    "oidcc-idtoken-signature",
    "oidcc-idtoken-unsigned",
    "oidcc-userinfo-get",
    "oidcc-userinfo-post-header",
    "oidcc-userinfo-post-body",
    "oidcc-ensure-request-without-nonce-succeeds-for-code-flow",
    "oidcc-scope-profile",
    "oidcc-scope-email",
    "oidcc-scope-address",
    "oidcc-scope-phone",
    "oidcc-scope-all",
    "oidcc-alternate-happy-flow",
    "oidcc-display-page",
    "oidcc-display-popup",
    "oidcc-prompt-login",
    "oidcc-prompt-none-not-logged-in",
    "oidcc-prompt-none-logged-in",
    "oidcc-max-age-1",
    "oidcc-max-age-10000",
    "oidcc-ensure-request-with-unknown-parameter-succeeds",
    "oidcc-id-token-hint",
    "oidcc-login-hint",
    "oidcc-ui-locales",
    "oidcc-claims-locales",
    "oidcc-ensure-request-with-acr-values-succeeds",
    "oidcc-codereuse",
    "oidcc-codereuse-30seconds",
    "oidcc-ensure-registered-redirect-uri",
    "oidcc-ensure-post-request-succeeds",
    "oidcc-server-client-secret-post",
    "oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported",
    "oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported",
    "oidcc-claims-essential",
    "oidcc-ensure-request-object-with-redirect-uri",
    "oidcc-refresh-token",
    "oidcc-ensure-request-with-valid-pkce-succeeds",
  ],
  "Config OP": ["oidcc-discovery-endpoint-verification"],
  "RP-Initiated Logout OP": [
    "oidcc-rp-initiated-logout-discovery-endpoint-verification",
    "oidcc-rp-initiated-logout",
    "oidcc-rp-initiated-logout-bad-post-logout-redirect-uri",
    "oidcc-rp-initiated-logout-modified-id-token-hint",
    "oidcc-rp-initiated-logout-no-id-token-hint",
    "oidcc-rp-initiated-logout-no-params",
    "oidcc-rp-initiated-logout-no-post-logout-redirect-uri",
    "oidcc-rp-initiated-logout-no-state",
    "oidcc-rp-initiated-logout-only-state",
    "oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri",
    "oidcc-rp-initiated-logout-bad-id-token-hint",
  ],
};

interface ModuleRow {
  plan: string;
  module: string;
  coveredBy: string;
  notes: string;
}

/** The rows of the table under the given heading, up to the next heading. */
function moduleRows(guide: string, heading: string): ModuleRow[] {
  const start = guide.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const rest = guide.slice(start + heading.length + 2);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| Plan |") && !line.startsWith("|---"))
    .map((line) => {
      const cells = line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim());
      if (cells.length !== 4) throw new Error(`not four cells: ${line}`);
      const [plan, module, coveredBy, notes] = cells as [string, string, string, string];
      return { plan, module, coveredBy, notes };
    });
}

/** The problems of one row: a check the registry does not have, or an uncovered module without its reason. */
function rowProblems(row: ModuleRow): string[] {
  const named = [...row.coveredBy.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
  if (named.length === 0) {
    if (row.coveredBy !== "does not apply" && row.coveredBy !== "not covered yet")
      return [
        `${row.module}: "${row.coveredBy}" names no check and does not say "does not apply" or "not covered yet"`,
      ];
    return row.notes === "" ? [`${row.module}: ${row.coveredBy}, but the notes do not say why`] : [];
  }
  const rest = row.coveredBy.replace(/`[^`]+`/g, "").replace(/[,\s]/g, "");
  const problems = named.filter((name) => !isCheckName(name)).map((name) => `${row.module}: no check ${name}`);
  if (rest !== "") problems.push(`${row.module}: "${row.coveredBy}" is not a list of check names`);
  return problems;
}

const guide = readFileSync(new URL("../../docs/guide/identity-conformance.md", import.meta.url), "utf8");
const rows = moduleRows(guide, "## Every module of the three plans");

describe("the guide's table of the OpenID Foundation modules", () => {
  it("lists every module of the three plans once, with its plan", () => {
    const listed = rows.map((row) => `${row.plan} ${row.module}`).sort();
    const expected = Object.entries(PLANS)
      .flatMap(([plan, modules]) => modules.map((module) => `${plan} ${module}`))
      .sort();
    expect(listed).toEqual(expected);
  });

  it("names only registered checks, and says why a module is not covered", () => {
    expect(rows.flatMap(rowProblems)).toEqual([]);
  });

  it("fails a row that names a check the registry does not have, or no check without a reason", () => {
    const row = { plan: "Basic OP", module: "oidcc-server", notes: "" };
    expect(rowProblems({ ...row, coveredBy: "`sign_in`, `no_such_check`" })).toEqual([
      "oidcc-server: no check no_such_check",
    ]);
    expect(rowProblems({ ...row, coveredBy: "covered" })).toHaveLength(1);
    expect(rowProblems({ ...row, coveredBy: "not covered yet" })).toHaveLength(1);
    expect(rowProblems({ ...row, coveredBy: "`sign_in` mostly" })).toHaveLength(1);
    expect(rowProblems({ ...row, coveredBy: "`sign_in`, `state_echoed`" })).toEqual([]);
  });

  it("the mapping table of the checks names no module outside the three plans' and the Dynamic plan's", () => {
    const all = new Set(Object.values(PLANS).flat());
    const checksTable = guide.slice(guide.indexOf("| Check | OpenID Foundation test module(s) |"));
    const cited = checksTable.slice(0, checksTable.indexOf("\n\n")).match(/oidcc-[a-z0-9-]+/g) ?? [];
    expect(cited.filter((module) => !all.has(module))).toEqual([]);
  });
});
