// No secret reaches any output in any form. The secrets here contain every character that encodings treat
// differently (~ ! ' ( ) + / = and a space, and a double quote for JSON), the servers echo nothing on purpose, and
// each run fails so that the reports carry full requests, responses and reproductions.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startCatalogServer } from "../../conformance/fault-servers/catalog.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { startIdentityServer } from "../../conformance/fault-servers/identity.js";
import { startLinksServer } from "../../conformance/fault-servers/links.js";
import { startPayServer } from "../../conformance/fault-servers/pay.js";
import { Secrets } from "../../conformance/report/secrets.js";
import type { RunOptions } from "../../conformance/context.js";
import { startRun } from "../../conformance/runner.js";
import { runContracts } from "../support/processes.js";
import { secretForms } from "../support/secret-forms.js";
import { verdictOf } from "../../conformance/judge/verdict.js";

const SPECIAL = "~!'()+/= x";
const secrets = {
  LINKS_TOKEN: `links${SPECIAL}1`,
  CATALOG_API_KEY: `catalog"${SPECIAL}2`,
  CATALOG_READ_API_KEY: `catalog-read${SPECIAL}5`,
  PAY_SECRET: `pay${SPECIAL}3`,
  IDENTITY_CLIENT_SECRET: `identity${SPECIAL}4`,
};
const env = { ...FAULT_SERVER_CREDENTIALS, ...secrets };
const dir = mkdtempSync(join(tmpdir(), "conform-secrets-"));

function basics(id: string, secret: string): string[] {
  const form = (v: string) => new URLSearchParams({ s: v }).toString().slice(2);
  return [`${id}:${secret}`, `${form(id)}:${form(secret)}`].map((pair) => Buffer.from(pair).toString("base64"));
}

const cases = [
  [
    "links",
    () => startLinksServer({ token: secrets.LINKS_TOKEN, fault: "wrong-content-type", rateLimit: { windowMs: 1000 } }),
    ["--operation", "getAccount"],
  ],
  [
    "catalog",
    () =>
      startCatalogServer({
        apiKey: secrets.CATALOG_API_KEY,
        readApiKey: secrets.CATALOG_READ_API_KEY,
        fault: "idempotency-ignored",
      }),
    ["--operation", "createProduct", "--allow-writes"],
  ],
  [
    "pay",
    () => startPayServer({ shopId: env.PAY_SHOP_ID, secret: secrets.PAY_SECRET, fault: "nonce-not-checked" }),
    ["--operation", "getBalance"],
  ],
  [
    "identity",
    () => startIdentityServer({ fault: "code-reusable", clientSecret: secrets.IDENTITY_CLIENT_SECRET }),
    ["--operation", "exchangeToken"],
  ],
] as const;

describe("secrets with ~ ! ' ( ) + / = and a space", () => {
  // Each run has its own server and CLI process, so the four go concurrently.
  it.concurrent.each(cases)(
    "%s: no form of any secret in the console, the JSON or the JUnit report",
    async (api, start, args) => {
      const server = await start();
      try {
        const json = join(dir, `${api}.json`);
        const junit = join(dir, `${api}.xml`);
        const run = runContracts(
          [
            "conform",
            api,
            "--base-url",
            server.url,
            "--max-examples",
            "3",
            "--rate-limit",
            "1000/s",
            "--seed",
            "4",
            "--json",
            json,
            "--junit",
            junit,
            ...args,
          ],
          env,
        );
        // A failing run: the reports carry requests, responses, reproductions.
        expect(await run.exit, run.stderr()).toBe(1);
        const outputs = {
          stdout: run.stdout(),
          stderr: run.stderr(),
          json: readFileSync(json, "utf8"),
          junit: readFileSync(junit, "utf8"),
        };
        const secretValues = [...Object.values(secrets), ...[...server.secretsSeen].filter((s) => s.length >= 8)];
        const leaks = [
          ...secretValues.flatMap(secretForms),
          ...basics(env.IDENTITY_CLIENT_ID, secrets.IDENTITY_CLIENT_SECRET),
          "alice-demo-password",
        ];
        for (const [where, text] of Object.entries(outputs)) {
          for (const leak of leaks)
            expect(text.includes(leak), `${where} shows ${JSON.stringify(leak.slice(0, 12))}…`).toBe(false);
        }
        // The reproductions read the secret from its variable.
        const variable = { links: "${LINKS_TOKEN}", catalog: "${CATALOG_API_KEY}", pay: '"$PAY_SECRET"', identity: "" }[
          api
        ];
        expect(outputs.stdout).toContain(variable);
      } finally {
        await server.close();
      }
    },
  );
});

describe("a token in an answer that fails a check judged on arrival", () => {
  it("is redacted: max_response_time quotes the token response it failed on", async ({ onTestFinished }) => {
    const server = await startIdentityServer({ clientSecret: secrets.IDENTITY_CLIENT_SECRET });
    onTestFinished(() => server.close());
    const json = join(dir, "arrival.json");
    const args = [
      "conform",
      "identity",
      "--base-url",
      server.url,
      "--check",
      "max_response_time",
      "--check",
      "sign_in",
      "--json",
      json,
    ];
    // Every answer takes longer than 0 ms, so every one fails on arrival, before the flow has read the tokens out of
    // it; with no generated case, the first failing token exchange (the one the report quotes) issued tokens.
    const run = runContracts(
      [...args, "--max-response-time", "0", "--max-examples", "0", "--rate-limit", "1000/s"],
      env,
    );
    expect(await run.exit, run.stderr()).toBe(1);
    const report = readFileSync(json, "utf8");
    expect(report).toContain("max_response_time");
    expect(report).toMatch(/access_token\\":\\"<access_token>/);
    const tokens = [...server.secretsSeen].filter((secret) => secret.length >= 8);
    for (const [where, text] of Object.entries({ stdout: run.stdout(), stderr: run.stderr(), json: report }))
      for (const token of tokens.flatMap(secretForms))
        expect(text.includes(token), `${where} shows a token`).toBe(false);
  });
});

describe("a token the provider issued during the run", () => {
  const credentials = { clientId: env.IDENTITY_CLIENT_ID, clientSecret: secrets.IDENTITY_CLIENT_SECRET };
  const options: RunOptions = {
    api: "identity",
    baseUrl: "http://127.0.0.1:9",
    credentials,
    maxExamples: 1,
    seed: 1,
    operations: [],
    checks: new Set(["logout_post_redirect"]),
    allowWrites: false,
    timeoutMs: 1000,
    maxShrinks: 0,
    signal: new AbortController().signal,
  };
  const idToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
  const url = `http://127.0.0.1:9/end-session?id_token_hint=${idToken}&state=abc`;

  it("is redacted in the error of a failure, which can quote the whole URL (a browser's navigation error does)", () => {
    const { context, ledger } = startRun(options);
    context.secrets.add(idToken, "<id_token>");
    const error = `the browser could not open the page: page.goto: net::ERR_CONNECTION_REFUSED at ${url}`;
    ledger.record({
      type: "finding",
      finding: verdictOf(
        "logout_post_redirect",
        "logout",
        `logout did not complete: ${error}`,
        { request: { method: "GET", url, headers: {} }, error, durationMs: 1, receivedAt: 0 },
        "logout",
      ),
    });
    const record = JSON.stringify([...ledger.failures.values()]);
    expect(record).toContain("<id_token>");
    expect(record).not.toContain(idToken);
  });

  it("is redacted by the secrets the caller writes its reports with (the CLI passes its own to the run)", () => {
    const callers = new Secrets(credentials);
    const { context } = startRun({ ...options, secrets: callers });
    context.secrets.add(idToken, "<id_token>");
    expect(callers.redact(`GET ${url}`)).toBe("GET http://127.0.0.1:9/end-session?id_token_hint=<id_token>&state=abc");
  });
});

describe("a secret the server echoes in another JSON encoder's escaping", () => {
  it("is redacted in the console, the JSON and the JUnit report (PHP's \\/, .NET's \\u002B, Go's \\u003c)", async ({
    onTestFinished,
  }) => {
    const token = "zq9Xw/Kp+Ty=Qm<Rb>&'Vn7Lc";
    const server = await startLinksServer({ token, fault: "echoes-token-escaped", rateLimit: { windowMs: 1000 } });
    onTestFinished(() => server.close());
    const json = join(dir, "escaped.json");
    const junit = join(dir, "escaped.xml");
    const run = runContracts(
      [
        "conform",
        "links",
        "--base-url",
        server.url,
        "--operation",
        "getAccount",
        "--check",
        "content_type_conformance",
        "--max-examples",
        "1",
        "--rate-limit",
        "1000/s",
        "--json",
        json,
        "--junit",
        junit,
      ],
      { ...env, LINKS_TOKEN: token },
    );
    expect(await run.exit, run.stderr()).toBe(1);
    const outputs = {
      stdout: run.stdout(),
      stderr: run.stderr(),
      json: readFileSync(json, "utf8"),
      junit: readFileSync(junit, "utf8"),
    };
    expect(outputs.json).toContain('\\"token\\":\\"$LINKS_TOKEN\\"'); // the body was reported, the token in it replaced
    for (const [where, text] of Object.entries(outputs))
      for (const part of ["zq9Xw", "Vn7Lc"]) expect(text, where).not.toContain(part);
  });

  it("redacts each character in any JSON escaping, once or twice, in either hex case", () => {
    const secret = "ab/c+d=e<f>g&h'i\u00e9j";
    const redactor = new Secrets({ token: secret });
    const php = JSON.stringify(secret)
      .slice(1, -1)
      .replace(/\//g, "\\/")
      .replace(/\u00e9/g, "\\u00e9");
    const dotnet = JSON.stringify(secret)
      .slice(1, -1)
      .replace(/[+<>&'\u00e9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
    for (const written of [php, dotnet, JSON.stringify(php).slice(1, -1), JSON.stringify(dotnet).slice(1, -1)])
      expect(redactor.redact(`x ${written} y`), written).toBe("x $LINKS_TOKEN y");
  });

  it("finds a secret of no letter or digit, and replaces the longer of two secrets that share a start whole", () => {
    // Only the secrets whose longest run of letters and digits a text contains are tried on it.
    const redactor = new Secrets({ token: "!/+=<>" });
    redactor.add("abcd1234", "<shorter>");
    redactor.add("abcd1234-efgh", "<longer>");
    expect(redactor.redact(`a ${JSON.stringify("!/+=<>").slice(1, -1).replace("/", "\\/")} b`)).toBe(
      "a $LINKS_TOKEN b",
    );
    expect(redactor.redact("x abcd1234-efgh y abcd1234 z abcd")).toBe("x <longer> y <shorter> z abcd");
    expect(redactor.redact("x abcd1234\\u002defgh y")).toBe("x <longer> y");
  });
});

describe("a configured secret shorter than 4 characters", () => {
  it("is masked where the run sent it: request headers in the reports, and the reproduction reads its variable", async ({
    onTestFinished,
  }) => {
    const server = await startLinksServer({ token: "Zq9", fault: "wrong-content-type", rateLimit: { windowMs: 1000 } });
    onTestFinished(() => server.close());
    const json = join(dir, "short.json");
    const junit = join(dir, "short.xml");
    const run = runContracts(
      [
        "conform",
        "links",
        "--base-url",
        server.url,
        "--operation",
        "getAccount",
        "--max-examples",
        "1",
        "--rate-limit",
        "1000/s",
        "--json",
        json,
        "--junit",
        junit,
      ],
      { ...env, LINKS_TOKEN: "Zq9" },
    );
    expect(await run.exit, run.stderr()).toBe(1);
    const outputs = {
      stdout: run.stdout(),
      stderr: run.stderr(),
      json: readFileSync(json, "utf8"),
      junit: readFileSync(junit, "utf8"),
    };
    for (const [where, text] of Object.entries(outputs)) expect(text, where).not.toContain("Zq9");
    expect(outputs.json).toContain('"Authorization": "Bearer $LINKS_TOKEN"');
    expect(outputs.stdout).toContain('-H "Authorization: Bearer ${LINKS_TOKEN}"');
  });
});

describe("a sign-in password shorter than 4 characters (--sign-in password=x)", () => {
  it("is masked as a whole value where it is sent, and never inside other text", () => {
    const redactor = new Secrets({ signIn: { login: "alice", password: "x" } });
    expect(redactor.redactSent("application/x-www-form-urlencoded")).toBe("application/x-www-form-urlencoded");
    expect(redactor.redactSent("login=alice&password=x")).toBe("login=alice&password=<sign-in password>");
    expect(redactor.redactSent('{"login": "alice", "password": "x"}')).toBe(
      '{"login": "alice", "password": "<sign-in password>"}',
    );
    expect(redactor.redactSent("x")).toBe("<sign-in password>");
    expect(redactor.redactSent("max_age=1&prompt=x-login")).toBe("max_age=1&prompt=x-login");
    expect(redactor.shellWord("Content-Type: application/x-www-form-urlencoded")).toBe(
      '"Content-Type: application/x-www-form-urlencoded"',
    );
    expect(redactor.redact("text with x in it")).toBe("text with x in it");
  });

  it("leaves the console, the reports and the reproductions intact", async ({ onTestFinished }) => {
    // The provider accepts the password x; a fault at the token endpoint makes the reports carry a form POST.
    const server = await startIdentityServer({ fault: "wrong-at-hash", signIn: "login=alice&password=x" });
    onTestFinished(() => server.close());
    const json = join(dir, "short-password.json");
    const junit = join(dir, "short-password.xml");
    const run = runContracts(
      [
        "conform",
        "identity",
        "--base-url",
        server.url,
        "--operation",
        "exchangeToken",
        "--check",
        "id_token_at_hash",
        "--sign-in",
        "login=alice",
        "--sign-in",
        "password=x",
        "--json",
        json,
        "--junit",
        junit,
      ],
      { ...FAULT_SERVER_CREDENTIALS, IDENTITY_SIGN_IN: "" },
    );
    expect(await run.exit, run.stderr()).toBe(1);
    const outputs = {
      stdout: run.stdout(),
      stderr: run.stderr(),
      json: readFileSync(json, "utf8"),
      junit: readFileSync(junit, "utf8"),
    };
    expect(outputs.stdout).toContain("Content-Type: application/x-www-form-urlencoded");
    expect(outputs.stdout).toContain('-H "Content-Type: application/x-www-form-urlencoded"');
    expect(outputs.json).toContain("application/x-www-form-urlencoded");
    expect(outputs.junit).toContain("application/x-www-form-urlencoded");
    // The JSON report records the exchanges, the sign-in form's POST among them: in the requests the run sent, a
    // whole value equal to the password is masked (`password=<sign-in password>`, and so is a form value that
    // happens to be x too); inside other text, never.
    expect(outputs.json).toContain("password=<sign-in password>");
    for (const [where, text] of Object.entries(outputs)) {
      expect(text.replace(/=<sign-in password>(?=[&"])/g, ""), where).not.toContain("<sign-in password>");
      expect(text, where).not.toContain("password=x");
    }
  });
});
