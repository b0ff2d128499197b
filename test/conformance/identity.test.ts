// The identity checks at the OpenID Foundation's Basic OP / Config OP level, proven with the real CLI
// (dist/bin/contracts.js conform identity): the correct provider, its consent-page variant and its JavaScript-only
// sign-in (with --browser, and with --sign-in-script) pass every check; a sign-in that cannot complete fails the run
// with its real cause. The fault providers are in identity-faults.test.ts. The CLI runs are independent (each has its
// own provider on a free port) and mostly wait, so each group runs concurrently.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { operationModel, validateCase } from "../../conformance/plan/cases.js";
import { operationOf } from "../../conformance/contract/lookup.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { type IdentityVariant, startIdentityServer } from "../../conformance/fault-servers/identity.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { FLOW_CHECKS, IDENTITY_CHECKS } from "../../conformance/model/identity-check-groups.js";
import { identityOperationPath } from "../../conformance/identity/paths.js";
import type { RunReport } from "../../conformance/report/report.js";
import { FormDriver } from "../../conformance/sign-in/form.js";
import { Transport } from "../../conformance/send/transport.js";
import {
  checkOf as check,
  conformIdentity as conform,
  failingChecks as failing,
  SIGN_IN_DRIVERS,
} from "../support/conform-cli.js";
import { startTestServer } from "../support/http.js";
import { testPort } from "../support/ports.js";
import { type RunningCommand, runContracts } from "../support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "conform-identity-"));
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(options: Parameters<typeof startIdentityServer>[0]): Promise<RunningServer> {
  const server = await startIdentityServer(options); // port 0: any free port
  servers.push(server);
  return server;
}

describe.concurrent("correct providers: every identity check runs and none fails", () => {
  /** Nothing fails, and every check named ran and passed (all identity checks by default). */
  const expectAllPass = (report: RunReport, output: string, names = IDENTITY_CHECKS.map((c) => c.name)) => {
    expect(failing(report), output).toEqual([]);
    for (const name of names) expect(check(report, name), `${name}\n${output}`).toMatchObject({ failed: 0 });
    for (const name of names) expect(check(report, name).passed, `${name} did not run\n${output}`).toBeGreaterThan(0);
  };

  it.each<[string, IdentityVariant]>([
    ["HTML form sign-in", "html-form"],
    ["Keycloak-style consent page (only the accept button is pressed)", "consent-page"],
    ["two-step consent with one checkbox per requested scope (each ticked, then Continue)", "scope-consent"],
  ])("%s", async (_label, variant) => {
    const server = await start({ variant });
    const { code, report, output } = await conform(server.url, []);
    expectAllPass(report, output);
    expect(code).toBe(0);
  });

  // The password input's id and placeholder say "login" (normal_login_password, "Login password"): the login goes
  // into the username field and the password into the password field only because of the fields' types.
  it.each(SIGN_IN_DRIVERS)(
    "a sign-in page whose password input's id says login: login= and password= each go into their own field (%s driver)",
    async (_driver, args) => {
      const server = await start({ variant: "login-in-password-id" });
      const { code, report, output } = await conform(server.url, [...args, "--operation", "exchangeToken"]);
      expectAllPass(report, output, FLOW_CHECKS);
      expect(code).toBe(0);
    },
    300_000,
  );

  it("two-step consent with one checkbox per requested scope, with --browser: the requested scopes are ticked, Grant access (enabled by the page's script once a box is ticked) and Continue pressed, never Deny or Cancel", async () => {
    const server = await start({ variant: "scope-consent" });
    const { code, report, output } = await conform(server.url, ["--browser", "--operation", "exchangeToken"]);
    // granted_scope_claims fails if a requested scope was left unticked (only ticked scopes are granted).
    expectAllPass(report, output, FLOW_CHECKS);
    expect(code).toBe(0);
  }, 300_000);

  it("JavaScript-only sign-in with --browser (headless Chromium): the flow checks run and pass, and the application at the redirect_uri never gets the code", async () => {
    // The client's application listens at its redirect_uri and post-logout address: the browser must not deliver
    // the redirects there (an application would redeem the code before the checks do).
    const appRequests: string[] = [];
    const app = await startTestServer((request, _body, response) => {
      appRequests.push(`${request.method} ${request.url}`);
      response.end("the application");
    });
    try {
      const appOrigin = app.url;
      const server = await start({ variant: "javascript-sign-in", appOrigin });
      const { code, report, output } = await conform(server.url, ["--browser", "--operation", "exchangeToken"], {
        IDENTITY_REDIRECT_URI: `${appOrigin}/callback`,
        IDENTITY_POST_LOGOUT_REDIRECT_URI: `${appOrigin}/`,
      });
      expectAllPass(report, output, FLOW_CHECKS);
      expect(code).toBe(0);
      expect(appRequests).toEqual([]);
    } finally {
      await app.close();
    }
  }, 300_000);

  it("JavaScript-only sign-in with --sign-in-script", async () => {
    const server = await start({ variant: "javascript-sign-in" });
    const script = join(dir, "sign-in.mjs");
    // The user's own steps: this page's fields by id, and a marker proving the script (not the driver) signed in.
    writeFileSync(
      script,
      `export default async (page, fields) => {
  await page.fill("#user", fields.login);
  await page.fill("#secret", fields.password);
  await page.click("#go");
  console.error("sign-in script ran");
};\n`,
    );
    const { code, report, output } = await conform(
      server.url,
      ["--browser", "--sign-in-script", script, "--operation", "exchangeToken"],
      { IDENTITY_SIGN_IN: "login=alice&password=alice-demo-password" },
    );
    expectAllPass(report, output, FLOW_CHECKS);
    expect(output).toContain("sign-in script ran");
    expect(code).toBe(0);
  }, 300_000);
});

describe.concurrent("fail closed: a sign-in that cannot complete fails the run with its cause", () => {
  it("a JavaScript-only sign-in without --browser says to try --browser", async () => {
    const server = await start({ variant: "javascript-sign-in" });
    const { code, report, output } = await conform(server.url, ["--operation", "exchangeToken"]);
    expect(code).toBe(1);
    expect(failing(report)).toEqual(["sign_in"]);
    expect(report.failures.find((f) => f.check === "sign_in")?.message).toMatch(/JavaScript.*--browser/);
    for (const name of FLOW_CHECKS.filter((c) => c !== "sign_in" && c !== "token_errors"))
      expect(check(report, name).couldNotRun, name).toMatch(/^the sign-in did not complete: .*JavaScript/);
    expect(output).toMatch(/\d+ causes? of failure across/);
  });

  it.each(SIGN_IN_DRIVERS)(
    "wrong credentials (%s driver) are reported as such",
    async (_driver, args) => {
      const server = await start({});
      const { code, report } = await conform(server.url, [...args, "--operation", "exchangeToken"], {
        IDENTITY_SIGN_IN: "login=alice&password=not-the-password",
      });
      expect(code).toBe(1);
      expect(failing(report)).toEqual(["sign_in"]);
      expect(report.failures[0]?.message).toMatch(/wrong credentials/);
      expect(JSON.stringify(report)).not.toContain("not-the-password");
    },
    300_000,
  );

  it.each(SIGN_IN_DRIVERS)(
    "a refused sign-in (%s driver) says which field took which key, and never the values",
    async (_driver, args) => {
      const server = await start({ variant: "login-in-password-id" });
      const { code, report } = await conform(server.url, [...args, "--operation", "exchangeToken"], {
        IDENTITY_SIGN_IN: "login=alice&password=not-the-password",
      });
      expect(code).toBe(1);
      const message = report.failures.find((f) => f.check === "sign_in")?.message;
      expect(message).toContain("login → input#normal_login_username, password → input#normal_login_password");
      expect(JSON.stringify(report)).not.toContain("not-the-password");
    },
    300_000,
  );
});

describe("--manual", () => {
  it("prints the authorize URL and takes back the address the browser reached", async () => {
    const server = await start({});
    const json = join(dir, "manual.json");
    const run = runContracts(
      [
        "conform",
        "identity",
        "--base-url",
        server.url,
        "--manual",
        "--operation",
        "exchangeToken",
        "--check",
        "sign_in",
        "--check",
        "state_echoed",
        "--check",
        "id_token_signature_and_claims",
        "--json",
        json,
      ],
      FAULT_SERVER_CREDENTIALS,
    );
    // The "person": a browser of their own (here the form driver with its own cookies) that signs in at the URL.
    const transport = new Transport({ timeoutMs: 5000 });
    const person = new FormDriver(
      (request) => transport.send(request),
      Object.fromEntries(new URLSearchParams(FAULT_SERVER_CREDENTIALS.IDENTITY_SIGN_IN)),
    );
    const deadline = Date.now() + 30_000;
    while (!/\n {2}(http\S+)\n/.test(run.stderr()) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const url = /\n {2}(http\S+)\n/.exec(run.stderr())![1]!;
    expect(url).toContain(`${identityOperationPath("authorize")}?`);
    const navigation = await person.navigate(url, {
      until: (next) => next.href.startsWith(FAULT_SERVER_CREDENTIALS.IDENTITY_REDIRECT_URI),
      purpose: "test",
    });
    run.child.stdin.write(`${navigation.arrived!.href}\n`);
    run.child.stdin.end();
    expect(await run.exit).toBe(0);
    const report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
    for (const name of ["sign_in", "state_echoed", "id_token_signature_and_claims"])
      expect(check(report, name), name).toMatchObject({ passed: 1, failed: 0 });
  });
});

describe("logout by GET and by form POST", () => {
  it("an empty client_id= is judged the same both ways: omitted (RFC 6749 §3.1)", () => {
    const get = operationModel(operationOf("identity", "logout"));
    const post = operationModel(operationOf("identity", "logoutWithForm"));
    const base = { origin: "example" as const, label: "empty client_id", path: {}, headers: {} };
    const byGet = validateCase(get, {
      ...base,
      query: { client_id: "", post_logout_redirect_uri: "http://127.0.0.1:5173/" },
    });
    const byPost = validateCase(post, {
      ...base,
      query: {},
      body: { client_id: "", post_logout_redirect_uri: "http://127.0.0.1:5173/" },
    });
    expect(byPost.valid, byPost.reason).toBe(byGet.valid);
    // And a value that breaks the contract is still refused both ways.
    expect(validateCase(get, { ...base, query: { post_logout_redirect_uri: "not a uri" } }).valid).toBe(
      validateCase(post, { ...base, query: {}, body: { post_logout_redirect_uri: "not a uri" } }).valid,
    );
  });
});

describe("playwright-core", () => {
  it("is imported only by the browser driver, and only dynamically, so the CLI runs without it", () => {
    const dist = new URL("../../dist/", import.meta.url);
    const files = (readdirSync(dist, { recursive: true }) as string[]).filter((file) => file.endsWith(".js"));
    const importing = files.filter((file) =>
      /\bfrom\s+["']playwright-core["']|import\(["']playwright-core["']\)|require\(["']playwright-core["']\)/.test(
        readFileSync(new URL(file, dist), "utf8"),
      ),
    );
    expect(importing).toEqual(["conformance/sign-in/browser.js"]);
    expect(readFileSync(new URL("conformance/sign-in/browser.js", dist), "utf8")).not.toMatch(
      /\bfrom\s+["']playwright-core["']/,
    );
    const loaders = files.filter((file) =>
      /import\(["']\.\/browser\.js["']\)|from\s+["']\.\/browser\.js["']/.test(
        readFileSync(new URL(file, dist), "utf8"),
      ),
    );
    expect(loaders).toEqual(["conformance/sign-in/open.js"]);
    expect(readFileSync(new URL("conformance/sign-in/open.js", dist), "utf8")).toContain(
      'await import("./browser.js")',
    );
  });
});

describe("the sandbox (contracts sandbox) with --browser", () => {
  // Its sign-in page offers five ways to sign in (five forms), then a consent page and a logout confirmation.
  const BASE = testPort(4680);
  let sandbox: RunningCommand | undefined;
  afterAll(async () => {
    if (sandbox && sandbox.child.exitCode === null) {
      sandbox.child.kill("SIGTERM");
      await sandbox.exit;
    }
  });

  it("passes every flow check, signing in through the form of the e-mail method", async () => {
    sandbox = runContracts(["sandbox", "--base-port", String(BASE)]);
    await sandbox.waitForOutput(new RegExp(`pay\\s+http://127\\.0\\.0\\.1:${BASE + 3}\\b`));
    const env = {
      IDENTITY_CLIENT_ID: "demo-app",
      IDENTITY_CLIENT_SECRET: "demo-app-secret",
      IDENTITY_SIGN_IN: "login=alice.novak@example.org&password=alice-demo",
      // Its demo configuration registers one client: no second one to present a refresh token.
      IDENTITY_SECOND_CLIENT_ID: "",
      IDENTITY_SECOND_CLIENT_SECRET: "",
    };
    const { code, report, output } = await conform(
      `http://127.0.0.1:${BASE}`,
      ["--browser", "--operation", "exchangeToken"],
      env,
    );
    expect(failing(report), output).toEqual([]);
    // The sandbox offers no claims parameter (OPTIONAL, OpenID Connect Core §5.5): claims_essential skips, saying so.
    const skipped = ["claims_essential", "refresh_token_client_bound"];
    for (const name of FLOW_CHECKS.filter((c) => !skipped.includes(c)))
      expect(check(report, name).passed, `${name}\n${output}`).toBeGreaterThan(0);
    expect(check(report, "claims_essential").skipped).toMatch(/does not advertise claims_parameter_supported: true/);
    expect(check(report, "refresh_token_client_bound").skipped).toMatch(/needs a second client/);
    // It answers the authorization request by POST 405, as the contract (GET only) has it: a warning.
    expect(
      report.warnings.filter((w) => w.check === "authorization_by_post"),
      output,
    ).toEqual([expect.objectContaining({ message: expect.stringContaining("with status 405") })]);
    expect(code).toBe(0);
  }, 300_000);
});
