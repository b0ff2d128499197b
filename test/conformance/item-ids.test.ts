// Every exchange a run sends carries the id of the plan item that sent it: each item executes with a sender of its
// own (send/sender.ts forItem), also when several items are in flight at once (--concurrency). Only the reachability
// check and the cleanup belong to no item. The JSON report records the ids, and --from-json keeps them (and still
// reads a report of an older version that has none).
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialsFrom } from "../../conformance/cli-options.js";
import { readLinks } from "../../conformance/contract/links.js";
import { FAULT_SERVER_CREDENTIALS, startReferenceServer } from "../../conformance/fault-servers/faults.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { CHECK_NAMES } from "../../conformance/model/check-registry.js";
import type { RecordedExchange } from "../../conformance/model/recorded-traffic.js";
import type { RunReport } from "../../conformance/report/report.js";
import { runConformance } from "../../conformance/runner.js";
import { loadContract } from "../../lib/contract/index.js";
import { conformInProcess } from "../support/conform.js";

let catalog: RunningServer;
beforeAll(async () => {
  catalog = await startReferenceServer("catalog");
});
afterAll(() => catalog?.close());

/** The operation a recorded request is a request of, by the contract's routes. */
function operationOf(exchange: RecordedExchange, baseUrl: string): string | undefined {
  const path = new URL(exchange.request.url).pathname.slice(new URL(baseUrl).pathname.replace(/\/$/, "").length);
  return loadContract("catalog").route(exchange.request.method.toUpperCase(), path || "/")?.operation.operationId;
}

interface StartedItem {
  operationId: string;
  kind: string;
}

/** A catalog run with writes, four items at once, that tells which operation item started with which id. */
async function concurrentRun(): Promise<{ report: RunReport; started: Map<number, StartedItem> }> {
  const started = new Map<number, StartedItem>();
  const report = await runConformance({
    api: "catalog",
    baseUrl: catalog.url,
    credentials: credentialsFrom({}, FAULT_SERVER_CREDENTIALS),
    maxExamples: 4,
    seed: 11,
    operations: [],
    checks: new Set(CHECK_NAMES),
    allowWrites: true,
    timeoutMs: 10_000,
    maxShrinks: 5,
    concurrency: 4,
    signal: new AbortController().signal,
    onProgress: (event) => {
      if (event.type === "operation" && event.itemId !== undefined)
        started.set(event.itemId, { operationId: event.operationId, kind: event.phase });
    },
  });
  return { report, started };
}

describe("the plan item of each exchange", () => {
  it("is on every exchange but the reachability check and the cleanup, and is the item that sent it", async () => {
    const { report, started } = await concurrentRun();
    const exchanges = report.exchanges!;
    expect(exchanges.length).toBe(report.requests);
    expect(report.budget!.planned).toBeGreaterThan(started.size);

    // The reachability check comes first and belongs to no item; so does the cleanup, after every item.
    expect(exchanges[0]).toMatchObject({ request: { method: "GET", url: catalog.url } });
    expect(exchanges[0]!.itemId).toBeUndefined();
    const lastOfAnItem = exchanges.findLastIndex((e) => e.itemId !== undefined);
    const withoutItem = exchanges.slice(1).filter((e) => e.itemId === undefined);
    for (const exchange of withoutItem) {
      expect(exchanges.indexOf(exchange)).toBeGreaterThan(lastOfAnItem);
      expect(exchange.request.method).toBe("DELETE");
    }

    // Every id is one of the plan's; the operation items' exchanges are requests of the item's operation (or of an
    // operation whose links give it values, read once for it), with no credentials where the item sends none.
    const feeds = readLinks(loadContract("catalog").document);
    const ids = new Set<number>();
    for (const exchange of exchanges.filter((e) => e.itemId !== undefined)) {
      const id = exchange.itemId!;
      ids.add(id);
      expect(id).toBeGreaterThanOrEqual(0);
      expect(id).toBeLessThan(report.budget!.planned);
      const item = started.get(id);
      if (!item) continue; // a step (a sequence, a probe): its requests span operations
      const sentTo = operationOf(exchange, catalog.url);
      const linked = feeds.some((link) => link.to === item.operationId && link.from === sentTo);
      expect(sentTo === item.operationId || linked, `${exchange.request.method} ${exchange.request.url}`).toBe(true);
      if (item.kind === "no credentials")
        expect(Object.keys(exchange.request.headers)).not.toContain("x-seller-api-key");
      if (item.kind === "example" && sentTo === item.operationId)
        expect(exchange.request.headers["x-seller-api-key"]).toBeDefined();
    }
    // Every operation item that started sent its requests under its own id, and the steps under theirs.
    for (const id of started.keys()) expect(ids.has(id), `item ${id}`).toBe(true);
    expect([...ids].some((id) => !started.has(id))).toBe(true);
  }, 120_000);

  it("is kept by --from-json, and a report without ids (an older version's) is judged all the same", async () => {
    const active = await conformInProcess(
      ["catalog", "--base-url", catalog.url, "--max-examples", "2", "--seed", "3"],
      FAULT_SERVER_CREDENTIALS,
    );
    expect(active.code, active.output).toBe(0);
    const recorded = active.report.exchanges!;
    expect(recorded.slice(1).every((e) => typeof e.itemId === "number")).toBe(true);

    const again = await conformInProcess(["catalog", "--from-json", active.files.json], FAULT_SERVER_CREDENTIALS);
    expect(again.code, again.output).toBe(0);
    expect(again.report.exchanges!.map((e) => e.itemId)).toEqual(
      recorded.filter((e) => operationOf(e, catalog.url) !== undefined).map((e) => e.itemId),
    );

    const older = JSON.parse(readFileSync(active.files.json, "utf8")) as RunReport;
    for (const exchange of older.exchanges!) delete exchange.itemId;
    writeFileSync(active.files.json, JSON.stringify(older));
    const fromOlder = await conformInProcess(["catalog", "--from-json", active.files.json], FAULT_SERVER_CREDENTIALS);
    expect(fromOlder.code, fromOlder.output).toBe(0);
    expect(fromOlder.report.passive!.judged).toBe(again.report.passive!.judged);
    expect(fromOlder.report.exchanges!.every((e) => e.itemId === undefined)).toBe(true);
  }, 120_000);
});
