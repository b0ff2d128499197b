// `contracts proxy` as a user runs it: the real CLI in its own process in front of a links server, traffic through
// it, failures printed live as one redacted line each, SIGINT or SIGTERM, then the console summary, the JSON, JUnit
// and HTML reports on disk and the exit code; an https target reached by its name with its certificate checked; and
// the usage errors, each one clear line with exit code 2.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS as C } from "../../conformance/fault-servers/credentials.js";
import { exampleOf, type LinksFault, startLinksServer } from "../../conformance/fault-servers/links.js";
import { runContracts, runToEnd } from "../support/processes.js";

const directory = mkdtempSync(join(tmpdir(), "proxy-cli-"));
const closers: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(closers.map((close) => close())));

async function linksServer(fault?: LinksFault): Promise<string> {
  const server = await startLinksServer({ token: C.LINKS_TOKEN, rateLimit: { windowMs: 60_000 }, fault });
  closers.push(() => server.close());
  return server.url;
}

async function startProxy(target: string, ...extra: string[]) {
  return startProxyWith({}, target, ...extra);
}

async function startProxyWith(env: NodeJS.ProcessEnv, target: string, ...extra: string[]) {
  const command = runContracts(["proxy", "links", "--target", target, "--port", "0", ...extra], env);
  const banner = await command.waitForOutput(/at (http:\/\/127\.0\.0\.1:\d+)/);
  return { command, url: /at (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]! };
}

const SESSION_COOKIE = "session-cookie-value-4e1a9b";
const CODE = "authorization-code-77c3d1";

describe("contracts proxy (the CLI)", () => {
  it("prints failures live, and on SIGINT writes the reports and exits 1, with no secret anywhere", async () => {
    const target = await linksServer("wrong-content-type");
    const files = {
      json: join(directory, "links.json"),
      junit: join(directory, "links.xml"),
      html: join(directory, "links.html"),
    };
    const { command, url } = await startProxy(
      target,
      "--json",
      files.json,
      "--junit",
      files.junit,
      "--html",
      files.html,
    );
    const headers = { Authorization: `Bearer ${C.LINKS_TOKEN}`, Cookie: `sid=${SESSION_COOKIE}` };
    const account = await fetch(`${url}/api/account?code=${CODE}`, { headers });
    // Passed on as the server sent it, wrong content type and all.
    expect(account.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(JSON.parse(await account.text())).toMatchObject({ error: 0 });
    await (await fetch(`${url}/api/domains?limit=2&page=1`, { headers })).arrayBuffer();
    await (await fetch(`${url}/not/in/the/contract`, { headers })).arrayBuffer();

    // The failure is printed while the proxy runs, on one line.
    await waitFor(() => /✗ content_type_conformance on getAccount: .*\n/.test(command.stderr()));
    command.child.kill("SIGINT");
    expect(await command.exit).toBe(1);

    const out = command.stdout();
    expect(out).toMatch(/✗ content_type_conformance\s+FAILED 1 of 2/);
    expect(command.stderr()).toMatch(
      /contracts proxy: 1 cause of failure across 1 operation \(\d+ failing results?\) on links in 2 judged exchange\(s\) of 3/,
    );
    const report = JSON.parse(readFileSync(files.json, "utf8"));
    expect(report.failures.map((f: { check: string }) => f.check)).toEqual(["content_type_conformance"]);
    expect(report.exchanges).toHaveLength(2);
    expect(report.passive.gaps).toEqual([
      expect.objectContaining({ method: "GET", reason: expect.stringMatching(/matches no operation/) }),
    ]);
    const junit = readFileSync(files.junit, "utf8");
    expect(junit).toMatch(/<failure message="[^"]*" type="content_type_conformance">/);
    expect(readFileSync(files.html, "utf8")).toMatch(/content_type_conformance/);
    for (const text of [
      out,
      command.stderr(),
      readFileSync(files.json, "utf8"),
      junit,
      readFileSync(files.html, "utf8"),
    ])
      for (const secret of [C.LINKS_TOKEN, SESSION_COOKIE, CODE]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(Buffer.from(secret).toString("base64"));
      }
  });

  it("exits 0 on SIGTERM when the traffic it saw keeps the contract", async () => {
    const target = await linksServer();
    const json = join(directory, "clean.json");
    const { command, url } = await startProxy(target, "--json", json);
    for (const path of ["/api/account", "/api/campaigns?limit=2&page=1", "/api/channels"])
      await (await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${C.LINKS_TOKEN}` } })).arrayBuffer();
    command.child.kill("SIGTERM");
    expect(await command.exit).toBe(0);
    expect(command.stderr()).toMatch(/no failures on links in 3 judged exchange\(s\) of 3/);
    expect(JSON.parse(readFileSync(json, "utf8")).exchanges).toHaveLength(3);
  });

  it("fails closed: a proxy that judged nothing exits 1", async () => {
    const { command } = await startProxy(await linksServer());
    command.child.kill("SIGTERM");
    expect(await command.exit).toBe(1);
    expect(command.stderr()).toMatch(/no exchange of links was judged \(0 passed\)/);
  });

  it("lists an exchange the target did not answer as not judged, after answering 502", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const { command, url } = await startProxy(`http://127.0.0.1:${port}`);
    expect((await fetch(`${url}/api/account`)).status).toBe(502);
    await waitFor(() => /! GET .*\/api\/account not judged: no response: ECONNREFUSED/.test(command.stderr()));
    command.child.kill("SIGTERM");
    expect(await command.exit).toBe(1);
  });

  it("forwards to an https target (a staging deployment) by its name, and checks its certificate", async () => {
    const key = join(directory, "key.pem");
    const cert = join(directory, "cert.pem");
    const openssl = await runToEnd(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost",
      ],
      directory,
    );
    expect(openssl.status, openssl.stderr).toBe(0);
    const hosts: string[] = [];
    const staging = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      hosts.push(req.headers.host ?? "");
      const reset = String(Math.floor(Date.now() / 1000) + 60);
      res
        .writeHead(200, {
          "Content-Type": "application/json",
          "X-RateLimit-Limit": "30",
          "X-RateLimit-Remaining": "29",
          "X-RateLimit-Reset": reset,
        })
        .end(JSON.stringify(exampleOf("links", "getAccount")));
    });
    await new Promise<void>((resolve) => staging.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => staging.close(() => resolve())));
    const target = `https://localhost:${(staging.address() as { port: number }).port}`;

    const trusted = await startProxyWith({ NODE_EXTRA_CA_CERTS: cert }, target);
    const answer = await fetch(`${trusted.url}/api/account`, { headers: { Authorization: `Bearer ${C.LINKS_TOKEN}` } });
    expect(await answer.json()).toEqual(exampleOf("links", "getAccount"));
    expect(hosts).toEqual([new URL(target).host]);
    trusted.command.child.kill("SIGTERM");
    expect(await trusted.command.exit).toBe(0);
    expect(trusted.command.stderr()).toMatch(/no failures on links in 1 judged exchange\(s\) of 1/);

    // A certificate the machine does not trust is refused, never waved through: the client gets 502 and the reason.
    const untrusted = await startProxy(target);
    const refused = await fetch(`${untrusted.url}/api/account`);
    expect(refused.status).toBe(502);
    expect(await refused.text()).toMatch(/SELF_SIGNED|self.signed/i);
    untrusted.command.child.kill("SIGTERM");
    expect(await untrusted.command.exit).toBe(1);
  });

  it("refuses bad usage with one clear line and exit code 2", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["proxy", "links"], /--target is required/],
      [["proxy", "links", "--target", "ftp://example.com"], /--target must be an http\(s\) URL/],
      [["proxy", "nope", "--target", "http://127.0.0.1:1"], /unknown API "nope"/],
      [["proxy", "links", "--target", "http://127.0.0.1:1", "--max-body", "1k"], /--max-body takes a number of bytes/],
      // A folder that cannot be made (a missing one is made, as `mkdir -p` would).
      [
        ["proxy", "links", "--target", "http://127.0.0.1:1", "--json", "/dev/null/r.json"],
        /cannot create the directory/,
      ],
    ];
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const busyPort = String((busy.address() as { port: number }).port);
    cases.push([["proxy", "links", "--target", "http://127.0.0.1:1", "--port", busyPort], /is in use; choose another/]);
    try {
      for (const [args, message] of cases) {
        const command = runContracts(args);
        expect(await command.exit, args.join(" ")).toBe(2);
        expect(command.stderr().trim().split("\n"), args.join(" ")).toHaveLength(1);
        expect(command.stderr()).toMatch(message);
      }
    } finally {
      busy.close();
    }
    const help = runContracts(["proxy", "--help"]);
    expect(await help.exit).toBe(0);
    for (const option of ["--target", "--port", "--host", "--json", "--junit", "--html", "--max-body"])
      expect(help.stdout()).toContain(option);
    expect(existsSync(join(directory, "r.json"))).toBe(false);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
