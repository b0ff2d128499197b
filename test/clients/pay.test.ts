// The pay client against a local gateway that checks the signature over the raw bytes it received and refuses a
// nonce it has seen: nonce uniqueness under concurrency and across processes, signatures over the exact bytes sent,
// optional bodies, and refusals thrown as PayApiError.
import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { fileNonceSource } from "../../clients/node-nonce.js";
import { createPayClient, hmacSha256Signer, PayApiError } from "../../clients/pay.js";
import { webCryptoHmacSha256Signer } from "../../lib/pay-signature.js";
import { repoRoot } from "../support/processes.js";
import { sendJson } from "../support/http.js";
import { expectNoSecrets, PAY_SECRET, serve } from "./support.js";

const received: Array<{ nonce: number; shop: unknown; process: string | undefined }> = [];
let badSignatures = 0;
let url = "";
beforeAll(async () => {
  const seen = new Set<number>();
  url = await serve((request, raw, response) => {
    // The gateway checks the signature over the raw bytes it received and refuses a nonce it has seen.
    const expected = `Bearer ${createHmac("sha256", PAY_SECRET).update(raw).digest("hex")}`;
    if (request.headers.authorization !== expected) {
      badSignatures += 1;
      return sendJson(response, 200, { type: "error", desc: "Invalid signature", data: [] });
    }
    const body = JSON.parse(raw.toString()) as { nonce: number; shop_id: unknown };
    if (seen.has(body.nonce)) return sendJson(response, 200, { type: "error", desc: "Nonce already used", data: [] });
    seen.add(body.nonce);
    received.push({
      nonce: body.nonce,
      shop: body.shop_id,
      process: request.headers["x-process"] as string | undefined,
    });
    sendJson(response, 200, { type: "success", desc: "", data: { user_id: 7, balance: { USD: "10.00" } } });
  });
});

describe("pay signing and nonces", () => {
  it("signs the exact bytes and gives 40 concurrent calls 40 unique nonces", async () => {
    received.length = 0;
    badSignatures = 0;
    const pay = createPayClient({ baseUrl: url, shopId: "1042", apiKey: PAY_SECRET });
    const results = await Promise.all(Array.from({ length: 40 }, () => pay.POST("/api/balance/", { body: {} })));
    expect(results.every((r) => r.data?.type === "success")).toBe(true);
    expect(badSignatures).toBe(0);
    expect(new Set(received.map((r) => r.nonce)).size).toBe(40);
    expect(received.every((r) => r.shop === "1042")).toBe(true);
  });

  it("keeps nonces unique across two clients of one process (one counter per process)", async () => {
    received.length = 0;
    const clients = [0, 1].map(() => createPayClient({ baseUrl: url, shopId: "1042", apiKey: PAY_SECRET }));
    const calls = Array.from({ length: 20 }, () => clients.map((pay) => pay.POST("/api/balance/"))).flat();
    await Promise.all(calls);
    expect(new Set(received.map((r) => r.nonce)).size).toBe(40);
  });

  it("keeps nonces unique and increasing across two processes sharing a nonce file", async () => {
    received.length = 0;
    const nonceFile = join(mkdtempSync(join(tmpdir(), "pay-nonce-")), "nonce");
    const script = (name: string) => `
      import { createPayClient } from ${JSON.stringify(`${repoRoot}dist/clients/pay.js`)};
      import { fileNonceSource } from ${JSON.stringify(`${repoRoot}dist/clients/node-nonce.js`)};
      const pay = createPayClient({ baseUrl: ${JSON.stringify(url)}, shopId: "1042", apiKey: process.env.PAY_SECRET,
        nonces: fileNonceSource(${JSON.stringify(nonceFile)}) });
      for (let i = 0; i < 25; i++) await pay.POST("/api/balance/", { body: {}, headers: { "x-process": ${JSON.stringify(name)} } });`;
    const run = promisify(execFile);
    const env = { ...process.env, PAY_SECRET };
    await Promise.all(
      ["a", "b"].map((name) => run(process.execPath, ["--input-type=module", "-e", script(name)], { env })),
    );
    expect(received).toHaveLength(50);
    expect(new Set(received.map((r) => r.nonce)).size).toBe(50);
    for (const name of ["a", "b"]) {
      const mine = received.filter((r) => r.process === name).map((r) => r.nonce);
      expect(mine).toEqual([...mine].sort((x, y) => x - y));
    }
  });
});

describe("pay signers, optional bodies, transports and refusals", () => {
  it("hands a custom signer the exact bytes that go on the wire", async () => {
    const signed: string[] = [];
    const pay = createPayClient({
      baseUrl: url,
      shopId: "1042",
      signer: (bytes) => {
        signed.push(new TextDecoder().decode(bytes));
        return `Bearer ${createHmac("sha256", PAY_SECRET).update(bytes).digest("hex")}`;
      },
      nonces: fileNonceSource(join(mkdtempSync(join(tmpdir(), "pay-nonce-")), "nonce")),
    });
    received.length = 0;
    const { data } = await pay.POST("/api/orders/", { body: { page: 2 } });
    expect(data?.type).toBe("success");
    expect(JSON.parse(signed[0]!)).toEqual({ page: 2, shop_id: "1042", nonce: received[0]!.nonce });
  });

  it("signs alike with node:crypto (Node) and WebCrypto (browsers), as an independent HMAC does", async () => {
    const bodies = [
      "",
      "{}",
      JSON.stringify({ shop_id: "1042", nonce: 1_700_000_000_000_000, desc: "Café ✓" }),
      "x".repeat(5000),
    ];
    for (const text of bodies) {
      const bytes = new TextEncoder().encode(text);
      const expected = `Bearer ${createHmac("sha256", PAY_SECRET).update(bytes).digest("hex")}`;
      expect(await hmacSha256Signer(PAY_SECRET)(bytes)).toBe(expected);
      expect(await webCryptoHmacSha256Signer(PAY_SECRET)(bytes)).toBe(expected);
    }
  });

  it("needs no body argument for an operation without fields of its own", async () => {
    received.length = 0;
    const pay = createPayClient({ baseUrl: url, shopId: "1042", apiKey: PAY_SECRET });
    const { data } = await pay.POST("/api/balance/");
    expect(data?.type).toBe("success");
    expect(received).toHaveLength(1);
    expect(received[0]!.shop).toBe("1042");
  });

  it("gives a custom fetch an ordinary Request carrying the signed body, and a caller's middleware sees it too", async () => {
    const sent: string[] = [];
    const seenByMiddleware: string[] = [];
    const pay = createPayClient({
      baseUrl: url,
      shopId: "1042",
      apiKey: PAY_SECRET,
      fetch: async (request) => {
        sent.push(await request.clone().text());
        return fetch(request);
      },
    });
    pay.use({ onRequest: ({ request }) => void seenByMiddleware.push(request.headers.get("Authorization") ?? "") });
    received.length = 0;
    const { data } = await pay.POST("/api/orders/", { body: { page: 3 } });
    expect(data?.type).toBe("success");
    expect(JSON.parse(sent[0]!)).toEqual({ page: 3, shop_id: "1042", nonce: received[0]!.nonce });
    expect(seenByMiddleware).toEqual([`Bearer ${createHmac("sha256", PAY_SECRET).update(sent[0]!).digest("hex")}`]);
  });

  it("takes a caller's middleware that returns a new Request (openapi-fetch's pattern), sent as it returned it", async () => {
    const pay = createPayClient({ baseUrl: url, shopId: "1042", apiKey: PAY_SECRET });
    pay.use({
      onRequest: ({ request }) =>
        new Request(request, { headers: { ...Object.fromEntries(request.headers), "X-Process": "traced" } }),
    });
    received.length = 0;
    const { data } = await pay.POST("/api/orders/", { body: { page: 2 } });
    expect(data.type).toBe("success"); // the signature still holds: the body went out as signed
    expect(received).toEqual([expect.objectContaining({ shop: "1042", process: "traced" })]);
  });

  it("surfaces a refused request as PayApiError without the secret", async () => {
    const pay = createPayClient({ baseUrl: url, shopId: "1042", apiKey: "wrong-secret" });
    const error = await pay.POST("/api/shops/", { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayApiError);
    expect((error as PayApiError).desc).toBe("Invalid signature");
    expectNoSecrets(error);
  });
});
