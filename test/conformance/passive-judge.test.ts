// The passive judge's API as `contracts proxy` uses it: one exchange at a time, its failures at once (and told to
// onFailure), gaps for what matches no operation or cannot be read, and a RunReport at the end. The exchanges here
// are written in the test to pin the API down; the checks are proven on real recordings in passive-chromium.test.ts.
import { describe, expect, it } from "vitest";
import { createPassiveJudge } from "../../conformance/passive/judge.js";
import type { Exchange } from "../../conformance/model/exchange.js";

const BASE = "http://127.0.0.1:1";

function account(remaining: number, reset: number): Exchange {
  const body = {
    error: 0,
    data: {
      id: 1,
      email: "a@example.org",
      username: "a",
      avatar: "https://example.org/a.png",
      status: "pro",
      expires: "2027-01-01 00:00:00",
      registered: "2025-01-01 00:00:00",
    },
  };
  return {
    request: { method: "GET", url: `${BASE}/api/account`, headers: { Authorization: "Bearer key-of-the-recording" } },
    response: {
      status: 200,
      headers: {
        "content-type": "application/json",
        "x-ratelimit-limit": "30",
        "x-ratelimit-remaining": String(remaining),
        "x-ratelimit-reset": String(reset),
      },
      text: JSON.stringify(body),
      json: body,
      isJson: true,
      setCookies: [],
    },
    durationMs: 2,
    receivedAt: Date.now(),
  };
}

describe("createPassiveJudge", () => {
  it("judges one exchange at a time, lists gaps, and reports like an active run", () => {
    const told: string[] = [];
    const judge = createPassiveJudge("links", {
      baseUrl: BASE,
      source: "proxy",
      onFailure: (f) => told.push(`${f.check} ${f.operationId}`),
    });
    const reset = Math.floor(Date.now() / 1000) + 30;
    expect(judge.judge(account(29, reset))).toEqual({ operationId: "getAccount", failures: [] });
    const second = judge.judge(account(29, reset));
    expect(second.failures.map((f) => f.check)).toEqual(["rate_limit_headers_consistent"]);
    expect(told).toEqual(["rate_limit_headers_consistent getAccount"]);
    expect(
      judge.judge({ ...account(28, reset), request: { method: "GET", url: "not a url", headers: {} } }).gap,
    ).toEqual(expect.objectContaining({ reason: "its URL is not an absolute URL" }));
    judge.gap({ method: "GET", url: `${BASE}/api/account?token=key-of-the-recording`, reason: "no response" });
    const report = judge.report();
    expect(report.passive).toEqual(expect.objectContaining({ source: "proxy", entries: 4, judged: 2 }));
    expect(report.requests).toBe(2);
    expect(report.exchanges).toHaveLength(2);
    expect(report.failures.map((f) => f.check)).toEqual(["rate_limit_headers_consistent"]);
    const text = judge.redact(JSON.stringify(report));
    expect(text).not.toContain("key-of-the-recording");
    expect(text).toContain("Bearer recorded-bearer-token-1");
  });
});
