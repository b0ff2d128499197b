// Frontend teams and QA start mocks and collections from our bundles with their own tools: Mockoon's CLI imports each
// bundle and serves every operation's success example (once the example is the route's default response, as a
// Mockoon user picks it: the importer puts a body generated from the schema first), and openapi-to-postmanv2 imports
// each bundle into a collection with one request per operation on the deployment's base URL (servers[0]).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiName, loadContract, type OperationInfo, successKeyOf } from "../../lib/contract/index.js";
import { testPort } from "../support/ports.js";
import { type RunningCommand, repoRoot, spawnCommand } from "../support/processes.js";
import { APIS, bundlePath, bundleWithRangeSuccess, tool, workspace } from "./support.js";

const PORTS: Record<ApiName, number> = {
  identity: testPort(4880),
  links: testPort(4881),
  catalog: testPort(4882),
  pay: testPort(4883),
};

interface MockoonResponse {
  label: string;
  statusCode: number;
  body: string;
  default: boolean;
}
interface MockoonRoute {
  method: string;
  endpoint: string;
  responses: MockoonResponse[];
}

const pathOperations = (api: ApiName) =>
  loadContract(api)
    .operations()
    .filter((op) => !op.webhook);

/** The success response of an operation: its status and, for a JSON body, its first named example. */
function success(api: ApiName, op: OperationInfo): { status: number; example?: { name: string; value: unknown } } {
  const key = successKeyOf(op)!;
  const [example] = loadContract(api).responseExamples(op.operationId as never, key);
  return { status: Number(key), ...(example ? { example: { name: example.name, value: example.value } } : {}) };
}

const routeOf = (routes: MockoonRoute[], op: OperationInfo) =>
  routes.find(
    (route) =>
      route.method === op.method && `/${route.endpoint}` === op.path.replace(/\{([^}]+)\}/g, (_, name) => `:${name}`),
  );

describe("Mockoon", () => {
  const space = workspace("mockoon");
  const environments = {} as Record<ApiName, MockoonRoute[]>;
  let server: RunningCommand | undefined;
  beforeAll(async () => {
    const imports = await Promise.all(
      APIS.map((api) => tool("mockoon-cli", ["import", "-i", bundlePath(api), "-o", `${api}.json`], space.dir)),
    );
    expect(imports.filter((outcome) => outcome.code !== 0)).toEqual([]);
    for (const api of APIS) {
      const file = join(space.dir, `${api}.json`);
      const environment = JSON.parse(readFileSync(file, "utf8")) as { routes: MockoonRoute[] };
      environments[api] = structuredClone(environment.routes);
      for (const op of pathOperations(api)) {
        const route = routeOf(environment.routes, op);
        const wanted = success(api, op).example?.name;
        if (route && wanted) for (const response of route.responses) response.default = response.label === wanted;
      }
      writeFileSync(file, JSON.stringify(environment));
    }
    const data = APIS.map((api) => `${api}.json`);
    const ports = APIS.map((api) => String(PORTS[api]));
    const hostnames = APIS.map(() => "127.0.0.1");
    const cli = join(repoRoot, "node_modules", ".bin", "mockoon-cli");
    server = spawnCommand(
      cli,
      ["start", "--disable-log-to-file", "-d", ...data, "-p", ...ports, "-l", ...hostnames],
      space.dir,
    );
    for (const api of APIS) await server.waitForOutput(new RegExp(`started on port ${PORTS[api]}`), 60_000);
  }, 180_000);
  afterAll(() => {
    server?.child.kill("SIGTERM");
    space.remove();
  });

  it.each(APIS)(
    "%s: every operation is a route whose first response is the success, its examples among them",
    (api) => {
      const routes = environments[api];
      expect(routes).toHaveLength(pathOperations(api).length);
      for (const op of pathOperations(api)) {
        const route = routeOf(routes, op);
        expect(route, op.operationId).toBeDefined();
        const { status, example } = success(api, op);
        expect(route!.responses[0]!.statusCode, op.operationId).toBe(status);
        if (example) {
          const served = route!.responses.find((response) => response.label === example.name);
          expect(served?.statusCode, `${op.operationId} ${example.name}`).toBe(status);
          expect(JSON.parse(served!.body), `${op.operationId} ${example.name}`).toEqual(example.value);
        }
      }
    },
  );

  it.each(APIS)("%s: serves every operation's success example", async (api) => {
    for (const op of pathOperations(api)) {
      const { status, example } = success(api, op);
      const path = op.path.replace(/\{[^}]+\}/g, "1");
      const answer = await fetch(`http://127.0.0.1:${PORTS[api]}${path}`, {
        method: op.method.toUpperCase(),
        redirect: "manual",
      });
      expect(answer.status, op.operationId).toBe(status);
      const body = await answer.text();
      if (example) expect(JSON.parse(body), op.operationId).toEqual(example.value);
    }
  });
});

describe("a success declared as 2XX again", () => {
  it("Mockoon drops it: the operations answer their error as the default response", async () => {
    const space = workspace("mockoon-range");
    try {
      const imported = await tool(
        "mockoon-cli",
        ["import", "-i", bundleWithRangeSuccess(space.dir, "links"), "-o", "links.json"],
        space.dir,
      );
      expect(imported.code, imported.output).toBe(0);
      const routes = (JSON.parse(readFileSync(join(space.dir, "links.json"), "utf8")) as { routes: MockoonRoute[] })
        .routes;
      for (const op of pathOperations("links")) {
        const example = success("links", op).example!;
        const route = routeOf(routes, op)!;
        expect(
          route.responses.some((response) => response.label === example.name),
          op.operationId,
        ).toBe(false);
        expect(route.responses[0]!.label, op.operationId).toMatch(/failed|error/i);
      }
    } finally {
      space.remove();
    }
  });
});

describe("openapi-to-postmanv2", () => {
  const Converter = createRequire(import.meta.url)("openapi-to-postmanv2") as {
    convert(
      input: { type: "file"; data: string },
      options: object,
      done: (
        error: Error | null,
        result: { result: boolean; reason?: string; output?: Array<{ data: Collection }> },
      ) => void,
    ): void;
  };
  interface Item {
    name: string;
    item?: Item[];
    request?: { method: string; url: { raw: string } | string };
  }
  interface Collection {
    item: Item[];
    variable?: Array<{ key: string; value: string }>;
  }
  const requestsOf = (items: Item[]): Item[] => items.flatMap((item) => (item.item ? requestsOf(item.item) : [item]));

  it.each(APIS)("%s: one request per operation, on the deployment's base URL", async (api) => {
    const collection = await new Promise<Collection>((resolve, reject) =>
      Converter.convert({ type: "file", data: bundlePath(api) }, {}, (error, result) =>
        error || !result.result || !result.output?.[0]
          ? reject(error ?? new Error(result.reason))
          : resolve(result.output[0].data),
      ),
    );
    const requests = requestsOf(collection.item);
    const operations = pathOperations(api);
    expect(requests).toHaveLength(operations.length);
    const methods = requests.map((item) => item.request!.method.toLowerCase()).sort();
    expect(methods).toEqual(operations.map((op) => op.method).sort());
    const live = loadContract(api).document.servers![0]!;
    const placeholder = Object.keys(live.variables ?? {})[0]!;
    expect(collection.variable?.find((variable) => variable.key === "baseUrl")?.value).toBe(`{{${placeholder}}}`);
  });
});
