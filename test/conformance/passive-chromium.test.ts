// `contracts conform <api> --har` on traffic Chromium recorded (playwright-core's recordHar): the docs' try-it
// consoles against the sandbox for all four APIs, and a real sign-in at the sandbox's identity provider. The clean
// recording passes; copies with one planted fault each (a wrong status, a broken body, a repeated nonce, rate-limit
// headers counting up, a changed idempotent replay, a token refused before it expires) fail on the check that
// catches it. No output of any run holds a secret of the recording, in any encoding.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformCommand } from "../../conformance/conform-command.js";
import type { RunReport } from "../../conformance/report/report.js";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import { type BrowserRecording, recordBrowserTraffic } from "../support/har-recording.js";
import { secretForms } from "../support/secret-forms.js";

interface HarEntry {
  request: {
    method: string;
    url: string;
    headers: Array<{ name: string; value: string }>;
    postData?: { text?: string };
  };
  response: { status: number; headers: Array<{ name: string; value: string }>; content: { text?: string } };
}
type Har = { log: { entries: HarEntry[] } };

let recording: BrowserRecording;
const dir = mkdtempSync(join(tmpdir(), "passive-chromium-"));
beforeAll(async () => {
  recording = await recordBrowserTraffic();
}, 600_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Judged {
  code: number;
  report: RunReport;
  outputs: Record<"console" | "json" | "junit" | "html", string>;
}

let runs = 0;
/** `contracts conform <api> --har <copy>` in this process, with every report written. */
async function judge(api: ApiName, har: Har | string, extra: string[] = []): Promise<Judged> {
  const name = join(dir, `run-${++runs}`);
  writeFileSync(`${name}.har`, typeof har === "string" ? har : JSON.stringify(har));
  const printed: string[] = [];
  const io = { out: (t: string) => printed.push(t), err: (t: string) => printed.push(t), tty: false, signals: false };
  const args = [api, "--har", `${name}.har`, "--base-url", recording.urls[api], ...extra];
  const code = await runConformCommand(
    [...args, "--json", `${name}.json`, "--junit", `${name}.xml`, "--html", `${name}.html`],
    {},
    io,
  );
  const outputs = {
    console: printed.join(""),
    json: readFileSync(`${name}.json`, "utf8"),
    junit: readFileSync(`${name}.xml`, "utf8"),
    html: readFileSync(`${name}.html`, "utf8"),
  };
  rmSync(`${name}.har`);
  return { code, report: JSON.parse(outputs.json) as RunReport, outputs };
}

const parsed = (): Har => JSON.parse(recording.har) as Har;
const header = (list: Array<{ name: string; value: string }>, name: string) =>
  list.find((h) => h.name.toLowerCase() === name.toLowerCase());
/** The recorded exchanges of one operation (no CORS preflights), in order. */
function entriesOf(har: Har, method: string, path: string): HarEntry[] {
  return har.log.entries.filter((e) => e.request.method === method && new URL(e.request.url).pathname === path);
}
const failedChecks = (report: RunReport) => [...new Set(report.failures.map((f) => f.check))].sort();
const passed = (report: RunReport, check: string) => report.checks.find((c) => c.name === check)?.passed ?? 0;

describe("Chromium's recording of the docs consoles and the sign-in, judged with --har", () => {
  it.each(["links", "catalog", "pay", "identity"] as const)("%s: the clean recording passes", async (api) => {
    const { code, report, outputs } = await judge(api, recording.har);
    expect(failedChecks(report), outputs.console).toEqual([]);
    expect(code, outputs.console).toBe(0);
    expect(report.passive!.judged).toBeGreaterThan(0);
    // Everything else the browser loaded (the site, preflights, the other APIs) is listed, not dropped.
    expect(report.passive!.entries).toBe(parsed().log.entries.length);
    expect(report.passive!.gaps.length).toBe(report.passive!.entries - report.passive!.judged);
    expect(outputs.console).toMatch(/Recorded traffic: HAR file .* \(Playwright .*\)/);
    expect(outputs.console).toMatch(/entries at other addresses than/);
    expect(outputs.junit).toContain('classname="conform.' + api + '.gaps"');
    // A request to another API's host says whose operation it is.
    expect(report.passive!.gaps.map((gap) => gap.reason)).toContainEqual(
      expect.stringMatching(/; a request of (identity|links|catalog|pay) \(\w+\)$/),
    );
    expect(outputs.html).toContain('<h2 id="recorded-traffic">Recorded traffic</h2>');
  });

  it("the history checks judged the recorded repeats: rate-limit headers, the idempotent repeat, nonces, the token", async () => {
    expect(passed((await judge("links", recording.har)).report, "rate_limit_headers_consistent")).toBe(3);
    expect(passed((await judge("catalog", recording.har)).report, "idempotency")).toBe(1);
    expect(passed((await judge("pay", recording.har)).report, "nonce_replay")).toBe(2);
    expect(passed((await judge("identity", recording.har)).report, "issued_token_accepted")).toBe(1);
  });

  it("without --base-url, the API's host is the first one whose request matches an operation", async () => {
    const printed: string[] = [];
    const io = { out: (t: string) => printed.push(t), err: (t: string) => printed.push(t), tty: false, signals: false };
    const file = join(dir, "no-base.har");
    writeFileSync(file, recording.har);
    const json = join(dir, "no-base.json");
    expect(await runConformCommand(["links", "--har", file, "--json", json], {}, io), printed.join("")).toBe(0);
    rmSync(file);
    expect((JSON.parse(readFileSync(json, "utf8")) as RunReport).baseUrl).toBe(recording.urls.links);
  });
});

const FAULTS: Array<[string, ApiName, string, (har: Har) => void]> = [
  [
    // Every links operation documents `default` (its error envelope), so a refusal of a valid request is the fault.
    "a wrong status: the account refused with 404",
    "links",
    "positive_data_acceptance",
    (har) => {
      entriesOf(har, "GET", "/api/account")[0]!.response.status = 404;
    },
  ],
  [
    "a body that breaks its schema",
    "pay",
    "response_schema_conformance",
    (har) => {
      const entry = entriesOf(har, "POST", "/api/balance/")[0]!;
      const body = JSON.parse(entry.response.content.text!) as { data: { balance: unknown } };
      body.data.balance = "12.00";
      entry.response.content.text = JSON.stringify(body);
    },
  ],
  [
    "a repeated nonce that is accepted",
    "pay",
    "nonce_replay",
    (har) => {
      const [balance] = entriesOf(har, "POST", "/api/balance/");
      const [orders] = entriesOf(har, "POST", "/api/orders/");
      const nonce = (JSON.parse(balance!.request.postData!.text!) as { nonce: number }).nonce;
      const body = JSON.parse(orders!.request.postData!.text!) as { nonce: number };
      orders!.request.postData!.text = JSON.stringify({ ...body, nonce });
    },
  ],
  [
    "X-RateLimit-Remaining counting up within a window",
    "links",
    "rate_limit_headers_consistent",
    (har) => {
      const [first, second] = entriesOf(har, "GET", "/api/campaigns");
      const remaining = Number(header(first!.response.headers, "x-ratelimit-remaining")!.value);
      header(second!.response.headers, "x-ratelimit-remaining")!.value = String(remaining + 1);
      header(second!.response.headers, "x-ratelimit-reset")!.value = header(
        first!.response.headers,
        "x-ratelimit-reset",
      )!.value;
    },
  ],
  [
    "an idempotent repeat that returns another product",
    "catalog",
    "idempotency",
    (har) => {
      const second = entriesOf(har, "POST", "/admin/seller-api/products")[1]!;
      const product = JSON.parse(second.response.content.text!) as Record<string, unknown>;
      second.response.content.text = JSON.stringify({ ...product, id: `${String(product.id)}-second` });
    },
  ],
  [
    "an issued token refused before it expires",
    "identity",
    "issued_token_accepted",
    (har) => {
      const userinfo = entriesOf(har, "GET", loadContract("identity").operation("getUserInfo").path)[0]!;
      userinfo.response.status = 401;
      userinfo.response.headers.push({ name: "WWW-Authenticate", value: 'Bearer error="invalid_token"' });
      userinfo.response.content.text = JSON.stringify({
        error: "invalid_token",
        error_description: "invalid token provided",
      });
    },
  ],
];

describe("faults planted in copies of the recording", () => {
  it.each(FAULTS)("%s (%s) is caught by %s", async (_what, api, check, plant) => {
    const har = parsed();
    plant(har);
    const { code, report, outputs } = await judge(api, har);
    expect(failedChecks(report), outputs.console).toContain(check);
    expect(code).toBe(1);
  });
});

/** The secrets of the recording, read from the HAR itself: signatures, cookies, and what the test knows it sent. */
function recordedSecrets(): Record<string, string> {
  const found: Record<string, string> = { ...recording.secrets };
  parsed().log.entries.forEach((entry, i) => {
    const authorization = header(entry.request.headers, "authorization")?.value;
    if (authorization) found[`authorization ${i}`] = authorization.replace(/^\S+\s+/, "");
    for (const h of entry.response.headers)
      if (h.name.toLowerCase() === "set-cookie") {
        const value = h.value.split(";")[0]!.split("=").slice(1).join("=");
        if (value.length >= 8) found[`set-cookie ${i}`] = value;
      }
  });
  return found;
}

/** The token exchange of the recording with the client authenticated by HTTP Basic (RFC 6749 §2.3.1) instead. */
function withBasicClientAuthentication(har: Har): string {
  const entry = entriesOf(har, "POST", loadContract("identity").operation("exchangeToken").path)[0]!;
  const form = new URLSearchParams(entry.request.postData!.text);
  const basic = Buffer.from(`${form.get("client_id")}:${form.get("client_secret")}`).toString("base64");
  form.delete("client_secret");
  entry.request.postData!.text = form.toString();
  entry.request.headers.push({ name: "Authorization", value: `Basic ${basic}` });
  return basic;
}

describe("secrets of the recording", () => {
  it("the recording carries every credential kind of the four APIs", () => {
    const secrets = recordedSecrets();
    for (const kind of [
      "linksKey",
      "sellerKey",
      "sellerReadKey",
      "clientSecret",
      "password",
      "code",
      "verifier",
      "accessToken",
      "refreshToken",
      "idToken",
    ])
      expect(recording.har, kind).toContain(
        kind === "code" || kind === "verifier" ? secrets[kind]! : secrets[kind]!.slice(0, 8),
      );
    expect(Object.keys(secrets).filter((k) => k.startsWith("set-cookie")).length).toBeGreaterThan(0);
    expect(Object.keys(secrets).filter((k) => k.startsWith("authorization")).length).toBeGreaterThan(5);
  });

  it.each(
    FAULTS.map(([what, api]) => [what, api] as const).concat([
      ["clean", "identity"],
      ["client_secret_basic", "identity"],
      ["clean", "links"],
      ["clean", "catalog"],
      ["clean", "pay"],
    ]),
  )("%s, %s: no output holds a secret in any encoding", async (what, api) => {
    const har = parsed();
    FAULTS.find(([name]) => name === what)?.[3](har);
    const basic = what === "client_secret_basic" ? withBasicClientAuthentication(har) : undefined;
    const { outputs } = await judge(api, har);
    if (basic) expect(outputs.json).toContain('"Authorization": "Basic recorded-basic-credential-1');
    // The recorded exchanges are in the JSON report, their secrets replaced by numbered placeholders.
    expect(outputs.json).toMatch(/"(Authorization": "Bearer |x-seller-api-key": ")recorded-/);
    for (const [kind, secret] of Object.entries({ ...recordedSecrets(), ...(basic ? { basic } : {}) }))
      for (const form of secretForms(secret))
        for (const [output, text] of Object.entries(outputs))
          expect(text.includes(form), `${kind} in the ${output} output`).toBe(false);
  });
});

describe("bad input gets a clear line and loses nothing", () => {
  it("a truncated HAR and a file that is no HAR are usage errors that say so", async () => {
    await expect(judge("links", recording.har.slice(0, recording.har.length / 2))).rejects.toThrow(
      /not a HAR file: its JSON does not parse .*a truncated file cannot be judged/,
    );
    await expect(judge("links", '{"entries": []}')).rejects.toThrow(/not a HAR 1\.2 file: it has no log\.entries list/);
  });

  it("an entry without a response, one with its body left out and one that is no entry are gaps; the rest is judged", async () => {
    const har = parsed();
    const [account] = entriesOf(har, "GET", "/api/account");
    const [first] = entriesOf(har, "GET", "/api/campaigns");
    Object.assign(account!, { response: { status: 0, headers: [], content: {}, _error: "net::ERR_ABORTED" } });
    delete first!.response.content.text;
    (har.log.entries as unknown[]).push(null, { request: { method: "GET" } });
    const { code, report, outputs } = await judge("links", har);
    expect(code, outputs.console).toBe(0);
    expect(report.passive!.entries).toBe(parsed().log.entries.length + 2);
    expect(outputs.console).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/api\/account: recorded without a response \(net::ERR_ABORTED\): not judged/,
    );
    expect(outputs.console).toMatch(
      /\/api\/campaigns\?limit=2&page=1 \(200\): the recording left the body out \(\d+ bytes; record with content embedded\): not judged/,
    );
    expect(outputs.console).toMatch(/GET \(no URL\): not a HAR entry: no request with an absolute URL/);
    // The one listCampaigns left is judged.
    expect(report.checks.find((c) => c.name === "response_schema_conformance")!.operations.listCampaigns).toEqual({
      passed: 1,
      failed: 0,
    });
  });

  it("a body recorded compressed in base64 is decoded and judged, with a note", async () => {
    const har = parsed();
    const entry = entriesOf(har, "GET", "/api/campaigns")[0]!;
    const body = entry.response.content as { text?: string; encoding?: string };
    body.text = gzipSync(Buffer.from(body.text!)).toString("base64");
    body.encoding = "base64";
    entry.response.headers.push({ name: "Content-Encoding", value: "gzip" });
    const broken = parsed();
    const brokenEntry = entriesOf(broken, "GET", "/api/campaigns")[0]!;
    const brokenBody = brokenEntry.response.content as { text?: string; encoding?: string };
    brokenBody.text = gzipSync(Buffer.from(brokenBody.text!.replace('"campaigns"', '"campaigns_"'))).toString("base64");
    brokenBody.encoding = "base64";
    const clean = await judge("links", har);
    expect(failedChecks(clean.report), clean.outputs.console).toEqual([]);
    expect(clean.outputs.console).toMatch(
      /judged; the body was recorded in base64 \(\d+ bytes\), decompressed to \d+ bytes/,
    );
    expect(failedChecks((await judge("links", broken)).report)).toContain("response_schema_conformance");
  });
});

describe("--from-json: the exchanges a report recorded, judged again", () => {
  it("judges the same exchanges to the same verdicts, faults included, with secrets still out", async () => {
    const har = parsed();
    FAULTS.find(([, , check]) => check === "nonce_replay")![3](har);
    const first = await judge("pay", har);
    const file = join(dir, "recorded.json");
    writeFileSync(file, first.outputs.json);
    const printed: string[] = [];
    const io = { out: (t: string) => printed.push(t), err: (t: string) => printed.push(t), tty: false, signals: false };
    const again = join(dir, "again.json");
    expect(await runConformCommand(["pay", "--from-json", file, "--json", again], {}, io)).toBe(1);
    const report = JSON.parse(readFileSync(again, "utf8")) as RunReport;
    expect(failedChecks(report)).toEqual(failedChecks(first.report));
    expect(report.passive!.judged).toBe(first.report.passive!.judged);
    expect(printed.join("")).toMatch(/JSON report .*recorded\.json \(\d+ exchanges recorded at/);
    for (const secret of Object.values(recordedSecrets())) expect(readFileSync(again, "utf8")).not.toContain(secret);
  });
});

describe("--from-json of a clean recording's report", () => {
  it.each(["links", "catalog", "pay", "identity"] as const)(
    "%s: the redacted exchanges still pass (placeholders keep the secrets' shapes)",
    async (api) => {
      const first = await judge(api, recording.har);
      const file = join(dir, `clean-${api}.json`);
      writeFileSync(file, first.outputs.json);
      const printed: string[] = [];
      const io = {
        out: (t: string) => printed.push(t),
        err: (t: string) => printed.push(t),
        tty: false,
        signals: false,
      };
      const again = join(dir, `clean-${api}-again.json`);
      expect(await runConformCommand([api, "--from-json", file, "--json", again], {}, io), printed.join("")).toBe(0);
      const report = JSON.parse(readFileSync(again, "utf8")) as RunReport;
      expect(report.passive!.judged).toBe(first.report.passive!.judged);
      expect(report.checks.map((c) => [c.name, c.passed])).toEqual(first.report.checks.map((c) => [c.name, c.passed]));
    },
  );
});
