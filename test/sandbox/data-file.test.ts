// Issue #38: what --data keeps and how it reads it back. The state stays bounded (catalog keeps a hash of a body as
// its Idempotency-Key fingerprint, not the body), and start-up reads a snapshot plus its journal: a last line cut
// short by a crash is dropped, a journal older than the snapshot is ignored, a damaged one is refused, temporaries
// of interrupted writes are removed, and a data file of an older sandbox (no journal) is read as it is.
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../mock/sandbox/config.js";
import { journalFile, readState } from "../../mock/sandbox/persistence.js";
import { seedState } from "../../mock/sandbox/state.js";
import { clientsFor } from "./support/clients.js";
import { startTestSandbox } from "./support/sandbox.js";

const fresh = () => mkdtempSync(join(tmpdir(), "sandbox-data-"));

describe("bounded state", () => {
  it("keeps a fixed-size fingerprint of a create's body, however large its ignored properties", async () => {
    const dataFile = join(fresh(), "state.json");
    const sandbox = await startTestSandbox({ rateLimit: false, dataFile });
    try {
      const catalog = clientsFor(sandbox.urls, sandbox.fetch).catalog();
      const body = (note: string) =>
        ({
          title: "Big note",
          delivery_type: "digital_instant",
          category_id: "pcat_8kq2m4x7",
          status: "published",
          variants: [],
          note,
        }) as never;
      for (let i = 0; i < 8; i++) {
        const key = `big-${i}`;
        const created = await catalog.POST("/admin/seller-api/products", {
          params: { header: { "Idempotency-Key": key } },
          body: body("x".repeat(500_000)),
        });
        expect(created.response.status).toBe(200);
        const replayed = await catalog.POST("/admin/seller-api/products", {
          params: { header: { "Idempotency-Key": key } },
          body: body("x".repeat(500_000)),
        });
        expect((replayed.data as { id: string }).id).toBe((created.data as { id: string }).id);
        await expect(
          catalog.POST("/admin/seller-api/products", {
            params: { header: { "Idempotency-Key": key } },
            body: body("y"),
          }),
        ).rejects.toThrow(/already used with a different request body/);
      }
      const fingerprints = sandbox.sandbox.state.catalog.shops.flatMap((shop) =>
        Object.values(shop.idempotency).map((entry) => entry.fingerprint),
      );
      expect(fingerprints.length).toBeGreaterThanOrEqual(8);
      for (const fingerprint of fingerprints) expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await sandbox.stop();
    }
    const bytes = statSync(dataFile).size + statSync(journalFile(dataFile)).size;
    expect(bytes).toBeLessThan(100_000); // 8 bodies of 500 KB went through; none of them is kept
  });
});

describe("reading a data file back", () => {
  async function writeSnapshot(file: string, generation?: number) {
    const state = await seedState(defaultConfig());
    writeFileSync(file, JSON.stringify(generation === undefined ? state : { ...state, generation }));
    return state;
  }
  const change = (path: Array<string | number>, value: unknown) => `${JSON.stringify([[path, value]])}\n`;

  it("replays the journal of the snapshot's generation and drops a last line cut short", async () => {
    const directory = fresh();
    const file = join(directory, "state.json");
    await writeSnapshot(file, 3);
    writeFileSync(
      journalFile(file),
      `{"generation":3}\n${change(["pay", "nextOrderId"], 5000)}${change(["links", "account", "email"], "a@b.c")}` +
        change(["pay", "nextOrderId"], 6000).slice(0, 20),
    );
    writeFileSync(join(directory, "state.json.1234.tmp"), "half a snapshot");
    writeFileSync(join(directory, "state.json.1234.journal.tmp"), "half a journal");
    const state = (await readState(file))!;
    expect(state.pay.nextOrderId).toBe(5000);
    expect(state.links.account.email).toBe("a@b.c");
    expect(readdirSync(directory).sort()).toEqual(["state.json", "state.json.journal"]);
  });

  it("ignores a journal older than the snapshot (a crash between the snapshot and the new journal)", async () => {
    const file = join(fresh(), "state.json");
    const seeded = await writeSnapshot(file, 4);
    writeFileSync(journalFile(file), `{"generation":3}\n${change(["pay", "nextOrderId"], 1)}`);
    expect((await readState(file))!.pay.nextOrderId).toBe(seeded.pay.nextOrderId);
  });

  it("refuses a journal damaged before its last line, and reads an older sandbox's file without a journal", async () => {
    const file = join(fresh(), "state.json");
    const seeded = await writeSnapshot(file);
    expect((await readState(file))!.pay.nextOrderId).toBe(seeded.pay.nextOrderId);
    writeFileSync(journalFile(file), `{"generation":0}\nnot json\n${change(["pay", "nextOrderId"], 7)}`);
    await expect(readState(file)).rejects.toThrow(/the journal .*state\.json\.journal is damaged at line 2/);
  });
});
