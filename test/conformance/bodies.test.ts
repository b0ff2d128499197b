// Whole response bodies: a page of hundreds of orders (hundreds of KiB) is read and checked whole (it was cut at
// 64 KiB and then reported as invalid JSON), and a body beyond the runner's limit is reported as too large.
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { startPayServer } from "../../conformance/fault-servers/pay.js";
import type { RunReport } from "../../conformance/report/report.js";
import { Transport } from "../../conformance/send/transport.js";
import { runContracts } from "../support/processes.js";

const env = { ...FAULT_SERVER_CREDENTIALS };
const dir = mkdtempSync(join(tmpdir(), "conform-bodies-"));

describe("response bodies", () => {
  it("a listOrders page of 600 orders is read whole and passes the schema check", async ({ onTestFinished }) => {
    const server = await startPayServer({ shopId: env.PAY_SHOP_ID, secret: env.PAY_SECRET, pageSize: 1000 });
    onTestFinished(() => server.close());
    const [example] = server.orders;
    for (let i = 0; i < 600; i++) server.orders.push({ ...example, id: 500_000 + i });
    const json = join(dir, "orders.json");
    const run = runContracts(
      [
        "conform",
        "pay",
        "--base-url",
        server.url,
        "--operation",
        "listOrders",
        "--check",
        "response_schema_conformance",
        "--max-examples",
        "1",
        "--seed",
        "1",
        "--json",
        json,
      ],
      env,
    );
    const code = await run.exit;
    const report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
    expect(report.failures.map((f) => f.message)).toEqual([]);
    expect(code, run.stderr()).toBe(0);
  }, 60_000);

  it("a body beyond the limit is flagged as too large, not parsed", async ({ onTestFinished }) => {
    const body = JSON.stringify({ data: "x".repeat(300_000) });
    const server = createServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => void server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const whole = await new Transport({ timeoutMs: 5000 }).send({ method: "GET", url, headers: {} });
    expect(whole.response).toMatchObject({ isJson: true, text: body });
    const cut = await new Transport({ timeoutMs: 5000, maxBodyBytes: 100_000 }).send({
      method: "GET",
      url,
      headers: {},
    });
    expect(cut.response).toMatchObject({ isJson: false, tooLarge: 100_000 });
    expect(cut.response?.text.length).toBe(100_000);
  });
});
