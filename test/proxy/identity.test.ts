// Our identity client through the proxy: a whole sign-in (discovery, authorize, the sign-in form, the token exchange
// with the client secret, userinfo, JWKS, refresh) against the sandbox, every request of the client (openid-client
// over fetch) and of the scripted browser sent through the judging proxy. The provider names its own issuer, which
// an OIDC client checks, so the client keeps the sandbox's address and its fetch sends each request to the proxy
// instead (a proxy does not rewrite addresses). The sign-in works as it does directly, the report lists every
// exchange, and no credential of the flow (client secret, password, code, tokens, cookies) is in any output.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIdentityClient } from "../../clients/identity.js";
import { startJudgingProxy } from "../../conformance/proxy/judging.js";
import { htmlReport } from "../../conformance/report/report-html.js";
import { junitReport } from "../../conformance/report/junit.js";
import { jsonReport } from "../../conformance/report/report.js";
import { formAction, ScriptedBrowser } from "../sandbox/support/browser.js";
import { startTestSandbox, type TestSandbox } from "../sandbox/support/sandbox.js";

const APP = "http://127.0.0.1:5173/callback";
const PASSWORD = "alice-demo";
const CLIENT_SECRET = "demo-app-secret";
let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox?.stop());

describe("the identity client through contracts proxy", () => {
  it("signs in, and the proxy judges every exchange without showing a credential", async () => {
    const lines: string[] = [];
    const proxy = await startJudgingProxy({
      api: "identity",
      target: new URL(sandbox.urls.identity),
      host: "127.0.0.1",
      port: 0,
      maxBodyBytes: 1024 * 1024,
      onLine: (line) => lines.push(line),
    });
    const sent: string[] = [];
    const viaProxy = (input: string | URL | Request, init?: RequestInit) => {
      const url = (input instanceof Request ? input.url : String(input)).replace(sandbox.urls.identity, proxy.url);
      sent.push(url);
      return fetch(input instanceof Request ? new Request(url, input) : url, init);
    };
    const identity = await createIdentityClient({
      issuer: sandbox.urls.identity,
      clientId: "demo-app",
      clientSecret: CLIENT_SECRET,
      redirectUri: APP,
      allowInsecureRequests: true,
      fetch: viaProxy,
    });
    const request = await identity.createAuthorizationRequest(["openid", "profile", "email", "offline_access"]);
    const browser = new ScriptedBrowser(viaProxy, APP);
    const form = await browser.get(request.url);
    const back = await browser.submit(formAction(form.html, form.url, 'value="email"'), {
      method: "email",
      login: "alice.novak@example.org",
      password: PASSWORD,
    });
    const code = new URL(back.url).searchParams.get("code")!;
    const tokens = await identity.handleCallback(back.url, request);
    const claims = await identity.userInfo(tokens.accessToken, tokens.claims!.sub);
    expect(claims.email).toBe("alice.novak@example.org");
    const refreshed = await identity.refresh(tokens.refreshToken!);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);

    const report = await proxy.stop(1000);
    expect(sent.every((url) => url.startsWith(proxy.url))).toBe(true);
    expect(report.passive!.entries).toBe(sent.length);
    expect(report.exchanges!.length + report.passive!.gaps.length).toBe(sent.length);
    const reached = report.coverage!.byOperation.filter((op) => op.reached).map((op) => op.operationId);
    expect(reached).toEqual(
      expect.arrayContaining(["getOpenIdConfiguration", "authorize", "exchangeToken", "getUserInfo", "getJwks"]),
    );
    expect(report.failures, lines.join("\n")).toEqual([]);

    const redact = (text: string) => proxy.judge.redact(text);
    const outputs = [
      lines.join("\n"),
      jsonReport(report, redact),
      junitReport(report, redact),
      htmlReport(report, redact),
    ];
    const secrets = [
      CLIENT_SECRET,
      PASSWORD,
      code,
      tokens.accessToken,
      tokens.refreshToken!,
      tokens.idToken!,
      refreshed.accessToken,
    ];
    // The report does carry the flow (bodies and headers), with placeholders where the credentials were.
    expect(outputs[1]).toMatch(/"access_token\W+recorded-access-token-\d+/);
    expect(outputs[1]).toMatch(/client_secret=recorded-client-secret-\d+/);
    expect(outputs[1]).toMatch(/code=recorded-code-\d+/);
    for (const output of outputs)
      for (const secret of secrets) {
        expect(output).not.toContain(secret);
        expect(output).not.toContain(encodeURIComponent(secret));
      }
  });
});
