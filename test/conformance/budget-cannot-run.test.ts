// A check that could not run while the request budget ran out. It is "not reached" (the report's budget section says
// so, and it is never a pass) only when the budget cut its own plan item short: a request of that item came back not
// sent. A prerequisite the provider answered with an error still fails the run, even when the budget is spent by the
// time the check is judged: a check that could not run is not a pass (fail closed).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunOptions } from "../../conformance/context.js";
import type { Exchange } from "../../conformance/model/exchange.js";
import type { UpdatesVisibleScenario } from "../../conformance/model/step-scenarios.js";
import { startRun } from "../../conformance/runner.js";
import { startTestServer, type TestServer } from "../support/http.js";

let server: TestServer | undefined;
let baseUrl = "";
beforeAll(async () => {
  // Every update is answered with a server error: the step's prerequisite fails for a cause of the provider's own.
  server = await startTestServer((_request, _body, response) => {
    response.writeHead(500, { "content-type": "text/plain" }).end("no");
  });
  baseUrl = server.url;
});
afterAll(() => server?.close());

const CHECK = "update_visible_on_read";
const options = (): RunOptions => ({
  api: "links",
  baseUrl,
  credentials: { token: "a-links-token" },
  maxExamples: 1,
  seed: 1,
  operations: [],
  checks: new Set([CHECK]),
  allowWrites: true,
  timeoutMs: 5000,
  maxShrinks: 0,
  signal: new AbortController().signal,
});

/** The "updates visible" step's scenario of an update sent again, without the read after it. */
const sentAgain = (exchange: Exchange): UpdatesVisibleScenario => ({
  family: "step",
  name: "updates visible",
  at: "/data",
  sentAgain: { role: "update sent again", operationId: "updateAccount", label: "update sent again", exchange },
});

describe("a check that could not run when the request budget is spent", () => {
  it("fails the run when the provider's answer stopped it, though the budget ran out with that very request", async () => {
    const { sender, judge, ledger } = startRun(options());
    sender.transport.capRequests(1);
    const send = sender.forItem(1);
    const exchange = await send.sendAsIs({ method: "POST", url: `${baseUrl}/api/account/update`, headers: {} });
    expect(exchange.response?.status).toBe(500);
    expect(sender.transport.capReached).toBe(true);
    judge.scenario(sentAgain(exchange), send.cutByBudget);
    expect(ledger.unrunChecks.get(CHECK)).toMatch(/sent again was not accepted/);
  });

  it("is not reached when the budget kept its item's own request from being sent", async () => {
    const { sender, judge, ledger } = startRun(options());
    sender.transport.capRequests(0);
    const send = sender.forItem(1);
    const exchange = await send.sendAsIs({ method: "POST", url: `${baseUrl}/api/account/update`, headers: {} });
    expect(exchange).toMatchObject({ interrupted: true, budgetSpent: true });
    expect(send.cutByBudget).toBe(true);
    judge.scenario(sentAgain(exchange), send.cutByBudget);
    expect(ledger.unrunChecks.has(CHECK)).toBe(false);
  });
});
