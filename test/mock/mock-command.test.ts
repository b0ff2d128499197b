// Runs the real `contracts mock` command (the four Prism mocks in one process), calls every operation of every API
// with a valid request built from the contract's examples, checks each response against the contract, checks that
// invalid and unauthenticated requests are refused with the violation explained, and that stopping frees the ports.
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract, responseKeyFor } from "../../lib/contract/index.js";
import { exampleRequest, type SchemeCredentials } from "../../lib/example-requests.js";
import {
  API_NAMES,
  type ApiName,
  describeErrors,
  listOperations,
  loadBundle,
  type Operation,
  pointerSegment,
  resolvePointer,
  validateAt,
} from "../support/bundle-nodes.js";
import { portAnswers, testPort } from "../support/ports.js";
import { processTree, type RunningCommand, runContracts } from "../support/processes.js";

const BASE_PORT = testPort(4110);
const LINKS_ALONE = testPort(4131);
const PAY_ALONE = testPort(4132);
const DYNAMIC = testPort(4133);
const BLOCKED = testPort(4134);
const urlOf = (api: ApiName) => `http://127.0.0.1:${BASE_PORT + API_NAMES.indexOf(api)}`;
const CREDENTIALS: SchemeCredentials = {
  bearerApiKey: "test-links-key",
  sellerApiKey: "test-seller-key",
  requestSignature: `Bearer ${"0".repeat(64)}`,
  oauth2: "test-access-token",
  openIdConnect: "test-access-token",
};

let command: RunningCommand;

beforeAll(async () => {
  command = runContracts(["mock", "--base-port", String(BASE_PORT)]);
  await command.waitForOutput(new RegExp(`pay\\s+${urlOf("pay").replaceAll(".", "\\.")}\\b`));
});

afterAll(async () => {
  if (command.child.exitCode === null) {
    command.child.kill("SIGTERM");
    await command.exit;
  }
});

async function send(op: Operation, mutate?: (request: ReturnType<typeof exampleRequest>) => void) {
  const request = exampleRequest(op, urlOf(op.api), CREDENTIALS);
  mutate?.(request);
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: "manual",
  });
  const text = await response.text();
  return { request, response, text };
}

function coerceHeader(schema: { type?: string }, value: string): unknown {
  return schema.type === "integer" || schema.type === "number" ? Number(value) : value;
}

/** Sends the example request of `op` and checks status, headers and body against the documented response. */
async function expectAnsweredAsDocumented(api: ApiName, op: Operation): Promise<void> {
  const { response, text } = await send(op);
  expect(response.status, text).toBeLessThan(400);
  const operation = loadContract(api).findOperation(op.operationId);
  const key = operation && responseKeyFor(operation, response.status);
  if (key === undefined) throw new Error(`status ${response.status} is not documented`);
  const responsePointer = `${op.pointer}/responses/${key}`;
  const documented = resolvePointer(api, responsePointer);

  for (const [name, header] of Object.entries<any>(documented.headers ?? {})) {
    const value = response.headers.get(name);
    const headerPointer = `${responsePointer}/headers/${pointerSegment(name)}`;
    if (resolvePointer(api, headerPointer).required) expect(value, `header ${name}`).not.toBeNull();
    if (value !== null && header) {
      const schema = resolvePointer(api, `${headerPointer}/schema`);
      const result = validateAt(api, `${headerPointer}/schema`, coerceHeader(schema, value));
      expect(result.valid, `header ${name}: ${describeErrors(result.errors)}`).toBe(true);
    }
  }

  const mediaTypes = Object.keys(documented.content ?? {});
  if (mediaTypes.length === 0) return;
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  expect(mediaTypes).toContain(contentType);
  if (contentType.endsWith("json")) {
    const result = validateAt(
      api,
      `${responsePointer}/content/${pointerSegment(contentType)}/schema`,
      JSON.parse(text),
    );
    expect(result.valid, describeErrors(result.errors)).toBe(true);
  } else {
    expect(text.length).toBeGreaterThan(0);
  }
}

/** Every documented response with a body, and each of its named examples, which `Prefer` can ask for. */
function examplesOfResponses(api: ApiName, operations: Operation[]) {
  return operations.flatMap((op) =>
    Object.keys(op.operation.responses ?? {}).flatMap((status) => {
      const response = resolvePointer(api, `${op.pointer}/responses/${status}`);
      return Object.entries<any>(response.content ?? {}).flatMap(([mediaType, content]) =>
        Object.keys(content.examples ?? {}).map((name) => {
          const example = resolvePointer(
            api,
            `${op.pointer}/responses/${status}/content/${pointerSegment(mediaType)}/examples/${pointerSegment(name)}`,
          );
          return [`${op.operationId} ${status} ${name}`, op, status, mediaType, name, example.value] as const;
        }),
      );
    }),
  );
}

/**
 * An example as the mock serves it: its URLs on the example server's origin (the first concrete one's) moved to the
 * mock's.
 */
function onThisMock(api: ApiName, value: unknown): unknown {
  const exampleOrigin = new URL(loadBundle(api).servers!.find((s) => !s.url.includes("{"))!.url).origin;
  return JSON.parse(JSON.stringify(value).replaceAll(`"${exampleOrigin}`, `"${urlOf(api)}`));
}

/** A body without a demo account's `expires`, which the mock makes live (checked on its own). */
function withoutExpires(body: unknown): unknown {
  const data = (body as { data?: Record<string, unknown> } | undefined)?.data;
  if (!data || typeof data.expires !== "string") return body;
  const { expires: _expires, ...rest } = data;
  return { ...(body as object), data: rest };
}

describe("contracts mock", () => {
  it("prints one table row per API with its URL and docs", () => {
    const out = command.stdout();
    for (const api of API_NAMES)
      expect(out).toMatch(new RegExp(`${api}\\s+${urlOf(api).replaceAll(".", "\\.")}\\s+file://\\S+/${api}\\.html`));
  });

  // The requests of one API go side by side (the mocks serve them concurrently, as they would a frontend's).
  describe.concurrent.each(API_NAMES)("%s", (api) => {
    const operations = listOperations(api).filter((op) => !op.webhook);

    it.each(operations.map((op) => [op.operationId, op] as const))(
      "%s answers a valid request as the contract says",
      async (_id, op) => {
        await expectAnsweredAsDocumented(api, op);
      },
    );

    const documentedExamples = examplesOfResponses(api, operations);
    it.each(documentedExamples)("%s is reachable with Prefer", async (_label, op, status, mediaType, name, value) => {
      // `default` and ranges stand for statuses the provider does not document: ask for any code they cover.
      const code = status === "default" ? "400" : status.replace(/X/g, "0");
      const { response, text } = await send(op, (request) => {
        request.headers.Prefer = `code=${code}, example=${name}`;
        // A response documented in several media types: the client picks one as a browser or a fetch would.
        request.headers.Accept = mediaType;
      });
      expect(response.status).toBe(Number(code));
      expect((response.headers.get("content-type") ?? "").split(";")[0]).toBe(mediaType);
      if (mediaType.endsWith("json")) {
        const served = JSON.parse(text) as unknown;
        expect(withoutExpires(served)).toEqual(withoutExpires(onThisMock(api, value)));
        const expires = (served as { data?: { expires?: unknown } }).data?.expires;
        // A demo account's `expires` is served a year from now (mock/live-values.ts), not the example's fixed date.
        if (typeof expires === "string") {
          const ahead = Date.parse(`${expires.replace(" ", "T")}Z`) - Date.now();
          expect(Math.abs(ahead - 365 * 24 * 3600 * 1000)).toBeLessThan(120_000);
        }
      } else expect(text).toBe(value);
    });

    const secured = operations.filter((op) => (op.operation.security ?? []).length > 0);
    it.each(secured.map((op) => [op.operationId, op] as const))(
      "%s refuses a request without credentials",
      async (_id, op) => {
        const { response } = await send(op, (request) => {
          for (const name of ["Authorization", "x-seller-api-key"]) delete request.headers[name];
        });
        expect(response.status).toBe(401);
      },
    );

    const withRequiredBodyField = operations.filter((op) => {
      const content = op.operation.requestBody ? resolvePointer(api, `${op.pointer}/requestBody`).content : undefined;
      const mediaType = content && Object.keys(content)[0];
      return (
        mediaType &&
        resolvePointer(api, `${op.pointer}/requestBody/content/${pointerSegment(mediaType)}/schema`).required?.length
      );
    });
    it.each(withRequiredBodyField.map((op) => [op.operationId, op] as const))(
      "%s refuses a body without a required field and names the violation",
      async (_id, op) => {
        let missing = "";
        const { response, text } = await send(op, (request) => {
          const mediaType = request.bodyExample!.mediaType;
          const schema = resolvePointer(api, `${op.pointer}/requestBody/content/${pointerSegment(mediaType)}/schema`);
          const body = structuredClone(request.bodyExample!.value) as Record<string, unknown>;
          missing = schema.required[0];
          delete body[missing];
          request.body =
            mediaType === "application/json"
              ? JSON.stringify(body)
              : new URLSearchParams(body as Record<string, string>).toString();
        });
        expect([400, 422]).toContain(response.status);
        // Prism explains the violation in `sl-violations`; the body is the contract's error response, valid against
        // its schema, with the same explanation as its message.
        const violations = JSON.parse(response.headers.get("sl-violations") ?? "[]") as Array<{
          message: string;
          location: string[];
        }>;
        expect(violations.map((v) => v.message).join("\n")).toContain(`'${missing}'`);
        expect(violations.filter((v) => v.location[0] === "response")).toEqual([]);
        expect(JSON.stringify(JSON.parse(text))).toContain(`'${missing}'`);
      },
    );
  });

  it("serves every API from its own process and frees every port on SIGTERM", async () => {
    expect(processTree(command.child.pid!)).toEqual([command.child.pid]);
    command.child.kill("SIGTERM");
    expect(await command.exit).toBe(0);
    for (const api of API_NAMES) expect(await portAnswers(BASE_PORT + API_NAMES.indexOf(api))).toBe(false);
  });
});

// Each on ports of its own: they start side by side.
describe.concurrent("contracts mock, one API at a time", () => {
  it("stops on Ctrl-C (SIGINT) leaving no process behind", async () => {
    const run = runContracts(["mock", "--api", "links", "--port", `links=${LINKS_ALONE}`]);
    await run.waitForOutput(new RegExp(`links\\s+http://127\\.0\\.0\\.1:${LINKS_ALONE}\\b`));
    expect(run.stdout()).not.toMatch(/identity|catalog|pay\s/);
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(0);
    expect(await portAnswers(LINKS_ALONE)).toBe(false);
  });

  it("reads the APIs and ports from the environment", async () => {
    const run = runContracts(["mock"], { MOCK_APIS: "pay", MOCK_PORTS: `pay=${PAY_ALONE}` });
    await run.waitForOutput(new RegExp(`pay\\s+http://127\\.0\\.0\\.1:${PAY_ALONE}\\b`));
    const response = await fetch(`http://127.0.0.1:${PAY_ALONE}/api/balance/`, { method: "POST" });
    expect(response.status).toBe(401);
    run.child.kill("SIGTERM");
    expect(await run.exit).toBe(0);
  });

  it("serves generated data with --dynamic", async () => {
    const run = runContracts(["mock", "--api", "links", "--port", `links=${DYNAMIC}`, "--dynamic"]);
    await run.waitForOutput(new RegExp(`links\\s+http://127\\.0\\.0\\.1:${DYNAMIC}\\b`));
    const op = listOperations("links").find((o) => o.operationId === "listCampaigns")!;
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`http://127.0.0.1:${DYNAMIC}/api/campaigns`, {
        headers: { Authorization: "Bearer k" },
      });
      const result = validateAt(
        "links",
        `${op.pointer}/responses/200/content/application~1json/schema`,
        await response.json(),
      );
      expect(result.valid, describeErrors(result.errors)).toBe(true);
    }
    run.child.kill("SIGTERM");
    expect(await run.exit).toBe(0);
  });

  it("reports a port in use in one line, without a stack trace", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(BLOCKED, "127.0.0.1", resolve));
    try {
      const run = runContracts(["mock", "--api", "catalog", "--port", `catalog=${BLOCKED}`]);
      expect(await run.exit).toBe(1);
      const lines = run.stderr().trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(String(BLOCKED));
    } finally {
      blocker.close();
    }
  });

  it("rejects an unknown API with a usage error", async () => {
    const run = runContracts(["mock", "--api", "nope"]);
    expect(await run.exit).toBe(2);
    expect(run.stderr().trim().split("\n")).toHaveLength(1);
  });
});
