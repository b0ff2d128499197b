// Issue #38: the sandbox loses nothing it acknowledged. The real `contracts sandbox --data` process takes writes
// from many concurrent clients on links, catalog and pay and is SIGKILLed at random moments (during start-up too),
// then restarted on the same data file, again and again. In the end every write it answered with an id is in the
// state, no id names two different records, and no temporary file is left behind. npm test kills it 8 times
// (test/sandbox/crash.test.ts), the release proofs 24 times (test/release/sandbox-crash.test.ts), each run on a seed
// of its own (CRASH_SEED repeats one).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExpectStatic, vi } from "vitest";
import { API_NAMES } from "../../../lib/contract/index.js";
import { readState } from "../../../mock/sandbox/persistence.js";
import { testPort } from "../../support/ports.js";
import { type RunningCommand, runContracts } from "../../support/processes.js";
import { clientsFor } from "./clients.js";

const BASE_PORT = testPort(4740);
const WRITERS_PER_API = 4;

/** A small seeded generator, so that a failing run can be told apart from another by its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
export const crashSeed = (): number => Number(process.env.CRASH_SEED ?? Date.now() % 100_000);

async function killed(command: RunningCommand): Promise<void> {
  command.child.kill("SIGKILL");
  await command.exit;
}

/** Kills the sandbox `kills` times under concurrent writes, then expects every acknowledged write in its state. */
export async function expectAcknowledgedWritesKept(kills: number, seed: number, expect: ExpectStatic): Promise<void> {
  const next = random(seed);
  const directory = mkdtempSync(join(tmpdir(), "sandbox-crash-"));
  const dataFile = join(directory, "state.json");
  const urls = Object.fromEntries(API_NAMES.map((api, i) => [api, `http://127.0.0.1:${BASE_PORT + i}`])) as Record<
    (typeof API_NAMES)[number],
    string
  >;
  /** What the sandbox acknowledged: id → what the client sent. */
  const acknowledged = {
    domains: new Map<number, string>(),
    products: new Map<string, string>(),
    orders: new Map<number, string>(),
  };
  /** Writes acknowledged per API in the sandbox's current life. */
  const acknowledgedThisLife = { links: 0, catalog: 0, pay: 0 };
  /** Ids the sandbox handed out twice, for different writes (it must never happen, even across a crash). */
  const reused: string[] = [];
  function acknowledge<K>(api: keyof typeof acknowledgedThisLife, ids: Map<K, string>, id: K, sent: string): void {
    const earlier = ids.get(id);
    if (earlier !== undefined && earlier !== sent) reused.push(`${String(id)}: ${earlier} and ${sent}`);
    ids.set(id, sent);
    acknowledgedThisLife[api]++;
  }
  let writeNumber = 0;
  let current: RunningCommand | undefined;

  function start(): RunningCommand {
    return runContracts(["sandbox", "--base-port", String(BASE_PORT), "--data", dataFile, "--rate-limit", "off"]);
  }

  /** One writer: writes until `stop()` says so, recording every write the sandbox answered with an id. */
  async function writer(api: "links" | "catalog" | "pay", stopped: () => boolean): Promise<void> {
    const clients = clientsFor(urls, (input, init) => fetch(input, init));
    const links = clients.links();
    const catalog = clients.catalog();
    const pay = clients.pay();
    while (!stopped()) {
      const label = `w${++writeNumber}`;
      try {
        if (api === "links") {
          const { data } = await links.POST("/api/domain/add", { body: { domain: `https://${label}.example.com` } });
          if (data) acknowledge("links", acknowledged.domains, data.id, `https://${label}.example.com`);
        } else if (api === "catalog") {
          const body = {
            title: label,
            delivery_type: "digital_instant" as const,
            category_id: "pcat_8kq2m4x7",
            status: "published" as const,
            variants: [],
          };
          const { data } = await catalog.POST("/admin/seller-api/products", { body });
          if (data) acknowledge("catalog", acknowledged.products, (data as { id: string }).id, label);
        } else {
          const { data } = await pay.POST("/api/createOrder/", {
            body: { currency: "RUB", amount: 1, order_id: label },
          });
          if (data?.type === "success") acknowledge("pay", acknowledged.orders, data.data.id, label);
        }
      } catch {
        return; // the connection died with the process: not acknowledged
      }
    }
  }

  function temporaries(): string[] {
    return readdirSync(directory).filter((name) => name.endsWith(".tmp"));
  }

  try {
    let writingLives = 0;
    for (let life = 0; life < kills; life++) {
      current = start();
      if (life % 6 === 5) {
        // Killed while starting: replaying the journal, writing the first snapshot.
        await new Promise((resolve) => setTimeout(resolve, 50 + next() * 400));
        await killed(current);
        continue;
      }
      await current.waitForOutput(/Ctrl-C to stop/);
      expect(temporaries()).toEqual([]); // start-up removed what the last kill interrupted
      let stop = false;
      Object.assign(acknowledgedThisLife, { links: 0, catalog: 0, pay: 0 });
      const writers = (["links", "catalog", "pay"] as const).flatMap((api) =>
        Array.from({ length: WRITERS_PER_API }, () => writer(api, () => stop)),
      );
      // Each life takes writes on every API before its kill, however slow the machine: the kill then falls at a random
      // moment of a stream of writes, not before the first one (a fixed time let a busy machine kill lives that had
      // acknowledged nothing yet, and the test prove nothing about them).
      await vi.waitUntil(() => Object.values(acknowledgedThisLife).every((count) => count > 0), {
        timeout: 60_000,
        interval: 10,
      });
      writingLives++;
      await new Promise((resolve) => setTimeout(resolve, next() * 500));
      await killed(current);
      stop = true;
      await Promise.all(writers);
    }
    current = start();
    await current.waitForOutput(/Ctrl-C to stop/);
    // An answer comes after the banner's code, which goes on to install the signal handlers.
    expect((await fetch(`${urls.links}/api/account`, { headers: { authorization: "Bearer demo-links-key" } })).ok).toBe(
      true,
    );
    current.child.kill("SIGTERM");
    expect(await current.exit).toBe(0);
    current = undefined;

    expect(temporaries()).toEqual([]);
    expect(reused).toEqual([]);
    const state = (await readState(dataFile))!;
    const counts = [acknowledged.domains.size, acknowledged.products.size, acknowledged.orders.size];
    expect(Math.min(...counts), `acknowledged writes per API: ${counts.join(", ")}`).toBeGreaterThanOrEqual(
      writingLives,
    );

    const domains = new Map(state.links.domains.map((row) => [row.id, row.domain]));
    expect(domains.size, "no domain id names two domains").toBe(state.links.domains.length);
    for (const [id, domain] of acknowledged.domains) expect(domains.get(id), `domain ${id}`).toBe(domain);

    const products = state.catalog.shops.flatMap((shop) => shop.products);
    const titles = new Map(products.map((row) => [row.id, row.title]));
    expect(titles.size, "no product id names two products").toBe(products.length);
    for (const [id, title] of acknowledged.products) expect(titles.get(id), `product ${id}`).toBe(title);

    const orders = new Map(state.pay.orders.map((row) => [row.id, row.payment_id]));
    expect(orders.size, "no order id names two orders").toBe(state.pay.orders.length);
    for (const [id, label] of acknowledged.orders) expect(orders.get(id), `order ${id}`).toBe(label);
  } finally {
    if (current) await killed(current);
    rmSync(directory, { recursive: true, force: true });
  }
}
