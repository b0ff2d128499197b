// A refusal's page kept as evidence (issue 63): where a check counts an error page as a refusal (here
// redirect_uri_exact_match's near misses and the RP-Initiated Logout modules), the JSON report keeps the page's
// address, status and visible text, and with --browser the HTML report embeds a PNG screenshot of it, as the OpenID
// Foundation suite asks for. The real CLI against the correct fault provider.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIdentityServer } from "../../conformance/fault-servers/identity.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { conformIdentity, failingChecks } from "../support/conform-cli.js";

const dir = mkdtempSync(join(tmpdir(), "refusal-pages-"));
let server: RunningServer;
beforeAll(async () => {
  server = await startIdentityServer();
});
afterAll(async () => {
  await server?.close();
});

/** A PNG's first bytes (\x89PNG\r\n\x1a\n), base64. */
const PNG_BASE64 = "iVBORw0KGgo";
const CHECKS = ["--check", "redirect_uri_exact_match", "--check", "logout_bad_id_token_hint"];

describe.concurrent("the pages a check counted as refusals", () => {
  it("are in the JSON report with their status and text (the form driver), and no screenshot", async () => {
    const { code, report, output } = await conformIdentity(server.url, CHECKS);
    expect(failingChecks(report), output).toEqual([]);
    expect(code, output).toBe(0);
    const nearMisses = report.refusalPages?.filter((p) => p.check === "redirect_uri_exact_match") ?? [];
    expect(nearMisses.length, output).toBeGreaterThan(0);
    for (const page of nearMisses) {
      expect(page).toMatchObject({ status: 400, case: "authorize with near misses of the registered redirect_uri" });
      expect(page.text).toContain("The redirect_uri is not registered for this application.");
      expect(page.screenshot).toBeUndefined();
    }
    expect(report.refusalPages).toContainEqual(
      expect.objectContaining({
        check: "logout_bad_id_token_hint",
        status: 400,
        text: expect.stringContaining("The id_token_hint is not valid."),
      }),
    );
  }, 120_000);

  it("are pictured in the HTML report with --browser", async () => {
    const html = join(dir, "browser.html");
    const { code, report, output } = await conformIdentity(server.url, [...CHECKS, "--browser", "--html", html]);
    expect(failingChecks(report), output).toEqual([]);
    expect(code, output).toBe(0);
    const page = readFileSync(html, "utf8");
    const section = page.slice(page.indexOf('<h2 id="refusal-pages">'));
    expect(section, output).toContain(
      "redirect_uri_exact_match: authorize with near misses of the registered redirect_uri",
    );
    expect(section).toContain("The redirect_uri is not registered for this application.");
    expect(section).toContain(`src="data:image/png;base64,${PNG_BASE64}`);
    expect(page).toContain("img-src data:");
  }, 180_000);
});
