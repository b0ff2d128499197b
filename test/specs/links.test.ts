// Contract tests of the links API: structural facts, the quirks' positive examples, and one-change wrong
// payloads that every schema must reject.
import { describe, it, expect } from "vitest";
import {
  describeErrors,
  findOperation,
  listOperations,
  loadBundle,
  requestSchemaPointer,
  resolvePointer,
  responseSchemaPointer,
  validateAt,
} from "../../lib/openapi.js";

const API = "links" as const;
const JSON_MEDIA = "application~1json";

type Json = any;

/** The value of a named response example (follows `$ref`s to components/examples). */
function responseExample(operationId: string, status: string, name: string): Json {
  const op = findOperation(API, operationId);
  return structuredClone(resolvePointer(API, `${op.pointer}/responses/${status}/content/${JSON_MEDIA}/examples/${name}/value`));
}

/** The value of a named request-body example. */
function requestExample(operationId: string, name: string): Json {
  const op = findOperation(API, operationId);
  return structuredClone(resolvePointer(API, `${op.pointer}/requestBody/content/${JSON_MEDIA}/examples/${name}/value`));
}

/**
 * Pointer of an operation's error (default) body schema. The default responses are `$ref`s to
 * components/responses, and Ajv cannot walk a pointer through a `$ref`, so the pointer starts at the component.
 */
function defaultSchemaPointer(operationId: string): string {
  const ref = findOperation(API, operationId).operation.responses.default.$ref as string;
  expect(ref).toMatch(/^#\/components\/responses\//);
  return `${ref.slice(1)}/content/${JSON_MEDIA}/schema`;
}

/** Pointer of a body schema for any status; `default` goes through defaultSchemaPointer. */
function bodySchemaPointer(operationId: string, status: string): string {
  return status === "default" ? defaultSchemaPointer(operationId) : responseSchemaPointer(API, operationId, status);
}

function expectValid(pointer: string, data: unknown): void {
  const result = validateAt(API, pointer, data);
  expect(result.valid, describeErrors(result.errors)).toBe(true);
}

function expectInvalid(pointer: string, data: unknown): void {
  expect(validateAt(API, pointer, data).valid).toBe(false);
}

/** Takes a valid example, applies one change, and asserts the original passes and the changed copy fails. */
function rejectsMutation(pointer: string, example: Json, mutate: (copy: Json) => void): void {
  expectValid(pointer, example);
  const copy = structuredClone(example);
  mutate(copy);
  expectInvalid(pointer, copy);
}

/** Every value of every `x-undocumented` list in the bundle, with the JSON pointer where it lives. */
function undocumentedEntries(): Array<{ at: string; text: string }> {
  const found: Array<{ at: string; text: string }> = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, `${at}/${i}`));
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === "x-undocumented" && Array.isArray(value)) {
        for (const text of value) found.push({ at, text: String(text) });
      } else {
        walk(value, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      }
    }
  };
  walk(loadBundle(API), "");
  return found;
}

const EXPECTED_OPERATIONS: Record<string, [string, string, string]> = {
  getAccount: ["get", "/api/account", "account"],
  updateAccount: ["put", "/api/account/update", "account"],
  listDomains: ["get", "/api/domains", "domains"],
  addDomain: ["post", "/api/domain/add", "domains"],
  updateDomain: ["put", "/api/domain/{id}/update", "domains"],
  deleteDomain: ["delete", "/api/domain/{id}/delete", "domains"],
  listOverlays: ["get", "/api/overlay", "overlays"],
  listCampaigns: ["get", "/api/campaigns", "campaigns"],
  addCampaign: ["post", "/api/campaign/add", "campaigns"],
  assignLinkToCampaign: ["post", "/api/campaign/{campaignid}/assign/{linkid}", "campaigns"],
  updateCampaign: ["put", "/api/campaign/{id}/update", "campaigns"],
  deleteCampaign: ["delete", "/api/campaign/{id}/delete", "campaigns"],
  listChannels: ["get", "/api/channels", "channels"],
  listChannelItems: ["get", "/api/channel/{id}", "channels"],
  addChannel: ["post", "/api/channel/add", "channels"],
};

const LIST_OPERATIONS: Record<string, [string, string]> = {
  listDomains: ["twoDomains", "domains"],
  listOverlays: ["twoOverlays", "cta"],
  listCampaigns: ["twoCampaigns", "campaigns"],
  listChannels: ["twoChannels", "channels"],
  listChannelItems: ["marketingChannelItems", "items"],
};

const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];

describe("links: structure", () => {
  it("has exactly the 15 operations, on the given paths, methods and tags", () => {
    const ops = listOperations(API);
    expect(ops).toHaveLength(15);
    const actual = Object.fromEntries(ops.map((op) => [op.operationId, [op.method, op.path, op.operation.tags?.[0]]]));
    expect(actual).toEqual(EXPECTED_OPERATIONS);
    for (const op of ops) expect(op.operation.tags).toHaveLength(1);
    const doc = loadBundle(API);
    expect(Object.keys(doc.paths ?? {}).sort()).toEqual([...new Set(Object.values(EXPECTED_OPERATIONS).map(([, p]) => p))].sort());
    expect((doc.tags as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(
      ["account", "campaigns", "channels", "domains", "overlays"],
    );
  });

  it("declares the servers in order: mock, sandbox, live {link_url}", () => {
    const servers = loadBundle(API).servers ?? [];
    expect(servers.map((s) => s.url)).toEqual(["http://127.0.0.1:4011", "http://127.0.0.1:4021", "{link_url}"]);
    expect(servers[2]?.variables?.link_url?.default).toBe("http://127.0.0.1:4021");
  });

  it("secures every operation with the bearer API key, and nothing else", () => {
    const scheme = resolvePointer(API, "/components/securitySchemes/bearerApiKey");
    expect(scheme).toMatchObject({ type: "http", scheme: "bearer" });
    for (const op of listOperations(API)) {
      expect(op.operation.security, op.operationId).toEqual([{ bearerApiKey: [] }]);
    }
  });

  it("integer path parameters named as in the seed", () => {
    const expectedParams: Record<string, string[]> = {
      updateDomain: ["id"],
      deleteDomain: ["id"],
      assignLinkToCampaign: ["campaignid", "linkid"],
      updateCampaign: ["id"],
      deleteCampaign: ["id"],
      listChannelItems: ["id"],
    };
    for (const op of listOperations(API)) {
      const params = (op.operation.parameters ?? []).map((_: unknown, i: number) =>
        resolvePointer(API, `${op.pointer}/parameters/${i}`),
      );
      const pathParams = params.filter((p: Json) => p.in === "path");
      expect(pathParams.map((p: Json) => p.name), op.operationId).toEqual(expectedParams[op.operationId] ?? []);
      for (const p of pathParams) {
        expect(p.required).toBe(true);
        expect(p.schema.type).toBe("integer");
      }
    }
  });

  it("takes optional limit and page (integers, minimum 1, no maximum for limit) on every list endpoint", () => {
    for (const operationId of Object.keys(LIST_OPERATIONS)) {
      const op = findOperation(API, operationId);
      const refs = (op.operation.parameters as Array<{ $ref?: string }>).map((p) => p.$ref);
      expect(refs, operationId).toContain("#/components/parameters/limit");
      expect(refs, operationId).toContain("#/components/parameters/page");
    }
    for (const name of ["limit", "page"]) {
      const param = resolvePointer(API, `/components/parameters/${name}`);
      expect(param).toMatchObject({ name, in: "query", required: false, schema: { type: "integer", minimum: 1 } });
      expect(param.schema.maximum).toBeUndefined();
      const pointer = `/components/parameters/${name}/schema`;
      expectValid(pointer, 1);
      expectInvalid(pointer, 0);
      expectInvalid(pointer, 1.5);
      expectInvalid(pointer, "2");
    }
    expectValid("/components/parameters/limit/schema", 100000); // no invented maximum
    expectInvalid("/components/parameters/domainId/schema", "abc");
    expectInvalid("/components/parameters/linkid/schema", 50.5);
  });

  it("declares the three rate-limit headers on every response, default included", () => {
    for (const op of listOperations(API)) {
      for (const status of Object.keys(op.operation.responses)) {
        const response = resolvePointer(API, `${op.pointer}/responses/${status}`);
        expect(Object.keys(response.headers ?? {}).sort(), `${op.operationId} ${status}`).toEqual([...RATE_LIMIT_HEADERS].sort());
        for (const header of RATE_LIMIT_HEADERS) {
          expect(response.headers[header].$ref).toBe(`#/components/headers/${header}`);
        }
      }
    }
    for (const header of RATE_LIMIT_HEADERS) {
      const h = resolvePointer(API, `/components/headers/${header}`);
      expect(h.required).toBe(true);
      expect(h.schema.type).toBe("integer");
      expect(Object.keys(h.examples ?? {}).length).toBeGreaterThan(0);
      expectInvalid(`/components/headers/${header}/schema`, "30");
    }
    expectInvalid("/components/headers/X-RateLimit-Remaining/schema", -1);
    expectValid("/components/headers/X-RateLimit-Reset/schema", 1717232460);
    expectInvalid("/components/headers/X-RateLimit-Reset/schema", "2024-06-01 09:01:00");
  });

  it("puts the machine-readable rate limit on info", () => {
    expect(loadBundle(API).info["x-rate-limit"]).toEqual({
      limit: 30,
      windowSeconds: 60,
      headers: { limit: "X-RateLimit-Limit", remaining: "X-RateLimit-Remaining", reset: "X-RateLimit-Reset" },
    });
  });

  it("declares the closed error envelope under `default` on every operation, with named error examples", () => {
    for (const op of listOperations(API)) {
      const statuses = Object.keys(op.operation.responses).sort();
      expect(statuses, op.operationId).toEqual(["200", "default"]);
      const response = resolvePointer(API, `${op.pointer}/responses/default`);
      expect(response["x-undocumented"]).toEqual(["HTTP status codes for each error case are not shown."]);
      const media = response.content["application/json"];
      expect(media.schema.$ref).toBe("#/components/schemas/Error");
      const names = Object.keys(media.examples);
      expect(names).toEqual(expect.arrayContaining(["missingApiKey", "expiredApiKey"]));
      for (const name of names) {
        const example = resolvePointer(API, `${op.pointer}/responses/default/content/${JSON_MEDIA}/examples/${name}`);
        expect(example.summary).toMatch(/illustrative/);
      }
    }
    const all = new Set(listOperations(API).flatMap((op) => Object.keys(resolvePointer(API, `${op.pointer}/responses/default`).content["application/json"].examples)));
    expect([...all].sort()).toEqual(["expiredApiKey", "missingApiKey", "notFound", "validationFailed"]);
  });

  it("records every gap of the seed as x-undocumented", () => {
    const entries = undocumentedEntries();
    const info = loadBundle(API).info["x-undocumented"] as string[];
    const infoExpected = [
      /States and transitions/,
      /^Events are not shown/,
      /^Versioning is not shown/,
      /HTTP status codes for each error case are not shown/,
      /Behaviour once the cap .* exceeded is not shown/,
      /X-RateLimit-Reset timestamp is not shown/,
      /channel update and delete, links and other resources\) are not shown/,
    ];
    for (const re of infoExpected) expect(info.some((s) => re.test(s)), String(re)).toBe(true);

    const at = (pointer: string): string[] => entries.filter((e) => e.at === pointer).map((e) => e.text);
    expect(at("/components/schemas/Account/properties/status").join(" ")).toMatch(/account status is not shown/);
    expect(at("/components/schemas/Overlay/properties/type").join(" ")).toMatch(/overlay type is not shown/);
    expect(at("/components/schemas/ChannelItem/properties/type").join(" ")).toMatch(/channel-item type is not shown/);
    expect(at("/components/parameters/limit").join(" ")).toMatch(/maximum value of limit is not shown/);
    expect(at("/components/headers/X-RateLimit-Reset").join(" ")).toMatch(/unit .* is not shown/);
    expect(at("/paths/~1api~1account~1update/put").join(" ")).toMatch(/Required fields for account update are not shown/);
    expect(at("/components/schemas/AccountUpdate").join(" ")).toMatch(/Required fields for account update are not shown/);
    expect(at("/paths/~1api~1channel~1add/post").join(" ")).toMatch(/response of channel creation is not shown/);
    expect(at("/components/schemas/ChannelCreated").join(" ")).toMatch(/response of channel creation is not shown/);
    for (const name of ["AuthError", "ValidationError", "NotFoundError", "NotFoundOrValidationError"]) {
      expect(at(`/components/responses/${name}`)).toEqual(["HTTP status codes for each error case are not shown."]);
    }
    for (const e of entries) expect(e.text, e.at).toMatch(/^.{10,}\.$/);
    expect(at("/components/schemas/Domain").join(" ")).toMatch(/domain added without them look like .* is not shown/);
    expect(at("/components/schemas/Channel").join(" ")).toMatch(/channel created without them look like .* is not shown/);
    expect(entries.length).toBe(info.length + 15);
  });
});

describe("links: documented examples (quirks' positive cases)", () => {
  it("every request and response example validates against its schema", () => {
    let count = 0;
    for (const op of listOperations(API)) {
      const body = op.operation.requestBody?.content?.["application/json"];
      for (const name of Object.keys(body?.examples ?? {})) {
        expectValid(requestSchemaPointer(API, op.operationId), requestExample(op.operationId, name));
        count++;
      }
      for (const status of Object.keys(op.operation.responses)) {
        const media = resolvePointer(API, `${op.pointer}/responses/${status}`).content["application/json"];
        for (const name of Object.keys(media.examples)) {
          expectValid(bodySchemaPointer(op.operationId, status), responseExample(op.operationId, status, name));
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(40);
  });

  it("list responses carry error as the string \"0\", other successes the integer 0", () => {
    for (const [operationId, [example]] of Object.entries(LIST_OPERATIONS)) {
      expect(responseExample(operationId, "200", example).error).toBe("0");
    }
    expect(responseExample("getAccount", "200", "demoAccount").error).toBe(0);
    expect(responseExample("addDomain", "200", "domainAdded").error).toBe(0);
    expect(responseExample("addCampaign", "200", "campaignWithRotatorAdded").error).toBe(0);
    expect(responseExample("addChannel", "200", "channelAdded").error).toBe(0);
    expect(responseExample("deleteCampaign", "200", "campaignDeleted").error).toBe(0);
  });

  it("campaign add/update carry the name under `domain`, and rotator may be false", () => {
    const withRotator = responseExample("addCampaign", "200", "campaignWithRotatorAdded");
    const withoutRotator = responseExample("addCampaign", "200", "campaignWithoutRotatorAdded");
    expect(withRotator.domain).toBe("Spring Launch");
    expect(withRotator).not.toHaveProperty("name");
    expect(withoutRotator.rotator).toBe(false);
    expect(responseExample("updateCampaign", "200", "campaignUpdated").domain).toBe("Spring Launch 2024");
    const listed = responseExample("listCampaigns", "200", "twoCampaigns").data.campaigns;
    expect(listed.map((c: Json) => c.rotator)).toEqual(["https://go.example.com/r/spring-launch", false]);
  });

  it("uses one coherent demo data set across operations", () => {
    expect(responseExample("listDomains", "200", "twoDomains").data.domains.map((d: Json) => d.id)).toEqual([101, 102]);
    expect(responseExample("listCampaigns", "200", "twoCampaigns").data.campaigns.map((c: Json) => c.id)).toEqual([201, 202]);
    expect(responseExample("listChannels", "200", "twoChannels").data.channels.map((c: Json) => c.id)).toEqual([301, 302]);
    expect(responseExample("addDomain", "200", "domainAdded").id).toBe(102);
    expect(responseExample("updateCampaign", "200", "campaignUpdated").id).toBe(201);
    expect(resolvePointer(API, "/components/parameters/domainId/examples/goExampleCom/value")).toBe(101);
    expect(resolvePointer(API, "/components/parameters/campaignId/examples/springLaunch/value")).toBe(201);
    expect(resolvePointer(API, "/components/parameters/channelId/examples/marketing/value")).toBe(301);
    const itemIds = responseExample("listChannelItems", "200", "marketingChannelItems").data.items.map((i: Json) => i.id);
    expect(itemIds).toContain(resolvePointer(API, "/components/parameters/linkid/examples/springSaleLink/value"));
  });

  it("channel creation's response is an open object (error 0 and id inferred)", () => {
    const pointer = responseSchemaPointer(API, "addChannel", "200");
    const example = responseExample("addChannel", "200", "channelAdded");
    expectValid(pointer, { ...example, name: "Personal", starred: false });
  });

  it("account update, domain update and campaign add accept an empty body (nothing required)", () => {
    expectValid(requestSchemaPointer(API, "updateAccount"), {});
    expectValid(requestSchemaPointer(API, "updateDomain"), {});
    expectValid(requestSchemaPointer(API, "addCampaign"), {});
  });

  it("channel-item and overlay types stay open strings", () => {
    const items = responseExample("listChannelItems", "200", "marketingChannelItems");
    const pointer = responseSchemaPointer(API, "listChannelItems", "200");
    const copy = structuredClone(items);
    copy.data.items[0].type = "qr";
    expectValid(pointer, copy);
    const overlays = responseExample("listOverlays", "200", "twoOverlays");
    overlays.data.cta[0].type = "poll";
    expectValid(responseSchemaPointer(API, "listOverlays", "200"), overlays);
  });
});

describe("links: wrong payloads are rejected", () => {
  describe("envelope", () => {
    for (const [operationId, [example, arrayKey]] of Object.entries(LIST_OPERATIONS)) {
      describe(operationId, () => {
        const pointer = responseSchemaPointer(API, operationId, "200");
        it("rejects the integer 0 as error (quirk: lists carry the string \"0\")", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { c.error = 0; });
        });
        it("rejects the string \"1\" as error", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { c.error = "1"; });
        });
        it("rejects a missing error key", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { delete c.error; });
        });
        it("rejects an extra top-level key", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { c.message = "ok"; });
        });
        for (const field of ["result", "perpage", "currentpage", "nextpage", "maxpage"]) {
          it(`rejects a missing or string ${field}`, () => {
            rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { delete c.data[field]; });
            rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { c.data[field] = String(c.data[field]); });
          });
        }
        it(`rejects the array under another key than ${arrayKey}`, () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
            c.data.list = c.data[arrayKey];
            delete c.data[arrayKey];
          });
        });
        it("rejects an extra key in data (closed)", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { c.data.total = 2; });
        });
        it("rejects an extra key in an item (closed)", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { c.data[arrayKey][0].extra = true; });
        });
      });
    }

    const nonList: Array<[string, string]> = [
      ["getAccount", "demoAccount"],
      ["updateAccount", "accountUpdated"],
      ["addDomain", "domainAdded"],
      ["updateDomain", "domainUpdated"],
      ["deleteDomain", "domainDeleted"],
      ["addCampaign", "campaignWithRotatorAdded"],
      ["assignLinkToCampaign", "linkAssigned"],
      ["updateCampaign", "campaignUpdated"],
      ["deleteCampaign", "campaignDeleted"],
      ["addChannel", "channelAdded"],
    ];
    for (const [operationId, example] of nonList) {
      it(`${operationId}: rejects the string "0" as error (only lists carry the string form)`, () => {
        const pointer = responseSchemaPointer(API, operationId, "200");
        rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { c.error = "0"; });
        // error 1 with the success fields is neither envelope (the error envelope is closed)...
        rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => { c.error = 2; });
      });
    }

    it("message responses are closed and require message", () => {
      const pointer = responseSchemaPointer(API, "deleteDomain", "200");
      const example = responseExample("deleteDomain", "200", "domainDeleted");
      rejectsMutation(pointer, example, (c) => { delete c.message; });
      rejectsMutation(pointer, example, (c) => { c.data = {}; });
    });

    it("the domain creation response requires an integer id and is closed", () => {
      const pointer = responseSchemaPointer(API, "addDomain", "200");
      const example = responseExample("addDomain", "200", "domainAdded");
      rejectsMutation(pointer, example, (c) => { delete c.id; });
      rejectsMutation(pointer, example, (c) => { c.id = "102"; });
      rejectsMutation(pointer, example, (c) => { c.domain = "https://links.example.org"; });
    });
  });

  describe("error envelope (default)", () => {
    const pointer = defaultSchemaPointer("getAccount");
    const example = (): Json => responseExample("getAccount", "default", "missingApiKey");
    it("rejects error 0, the string \"1\", a missing message, a non-string message and extra keys", () => {
      rejectsMutation(pointer, example(), (c) => { c.error = 0; });
      rejectsMutation(pointer, example(), (c) => { c.error = "1"; });
      rejectsMutation(pointer, example(), (c) => { delete c.message; });
      rejectsMutation(pointer, example(), (c) => { c.message = 404; });
      rejectsMutation(pointer, example(), (c) => { c.code = 401; });
    });
    it("validates every named error example", () => {
      for (const [operationId, name] of [
        ["getAccount", "expiredApiKey"],
        ["deleteCampaign", "notFound"],
        ["addDomain", "validationFailed"],
        ["updateDomain", "notFound"],
      ] as const) {
        expectValid(defaultSchemaPointer(operationId), responseExample(operationId, "default", name));
      }
    });
  });

  describe("account", () => {
    const pointer = responseSchemaPointer(API, "getAccount", "200");
    const example = (): Json => responseExample("getAccount", "200", "demoAccount");
    it("rejects dates not in YYYY-MM-DD HH:MM:SS", () => {
      rejectsMutation(pointer, example(), (c) => { c.data.expires = "2025-12-31T23:59:59Z"; });
      rejectsMutation(pointer, example(), (c) => { c.data.registered = "2024-01-15"; });
    });
    it("rejects a bad e-mail, a non-URL avatar, a string id, a missing field and an extra field", () => {
      // The seed types the account e-mail only as a string, so any string passes; avatar is a URL.
      expectValid(pointer, { ...example(), data: { ...example().data, email: "demo-at-example.com" } });
      rejectsMutation(pointer, example(), (c) => { c.data.email = 42; });
      rejectsMutation(pointer, example(), (c) => { c.data.avatar = "demo.png"; });
      rejectsMutation(pointer, example(), (c) => { c.data.id = "1"; });
      rejectsMutation(pointer, example(), (c) => { delete c.data.status; });
      rejectsMutation(pointer, example(), (c) => { c.data.apikey = "secret"; });
    });
    it("account update body is closed with email and password only", () => {
      const body = requestSchemaPointer(API, "updateAccount");
      rejectsMutation(body, requestExample("updateAccount", "changeEmailAndPassword"), (c) => { c.username = "demo2"; });
      rejectsMutation(body, requestExample("updateAccount", "changeEmailAndPassword"), (c) => { c.email = "not-an-email"; });
      rejectsMutation(body, requestExample("updateAccount", "changePassword"), (c) => { c.password = 12345678; });
    });
  });

  describe("domains", () => {
    const listPointer = responseSchemaPointer(API, "listDomains", "200");
    const list = (): Json => responseExample("listDomains", "200", "twoDomains");
    it("rejects a domain without http or https scheme", () => {
      rejectsMutation(listPointer, list(), (c) => { c.data.domains[0].domain = "go.example.com"; });
      rejectsMutation(listPointer, list(), (c) => { c.data.domains[0].domain = "ftp://go.example.com"; });
    });
    it("rejects non-string redirects and a missing id or domain; the redirects are optional on read as on add", () => {
      rejectsMutation(listPointer, list(), (c) => { c.data.domains[0].redirectroot = 1; });
      rejectsMutation(listPointer, list(), (c) => { delete c.data.domains[1].id; });
      rejectsMutation(listPointer, list(), (c) => { delete c.data.domains[1].domain; });
      const withoutRedirects = list();
      delete withoutRedirects.data.domains[1].redirect404;
      delete withoutRedirects.data.domains[1].redirectroot;
      expectValid(listPointer, withoutRedirects);
    });
    it("add requires domain with scheme, closed body", () => {
      const body = requestSchemaPointer(API, "addDomain");
      rejectsMutation(body, requestExample("addDomain", "domainWithRedirects"), (c) => { delete c.domain; });
      rejectsMutation(body, requestExample("addDomain", "domainOnly"), (c) => { c.domain = "links.example.org"; });
      rejectsMutation(body, requestExample("addDomain", "domainOnly"), (c) => { c.redirect404 = "not found"; });
      rejectsMutation(body, requestExample("addDomain", "domainOnly"), (c) => { c.name = "Links"; });
    });
    it("update takes only the redirects (closed)", () => {
      const body = requestSchemaPointer(API, "updateDomain");
      rejectsMutation(body, requestExample("updateDomain", "bothRedirects"), (c) => { c.domain = "https://go.example.com"; });
      rejectsMutation(body, requestExample("updateDomain", "rootRedirectOnly"), (c) => { c.redirectroot = "home"; });
    });
  });

  describe("overlays", () => {
    const pointer = responseSchemaPointer(API, "listOverlays", "200");
    const list = (): Json => responseExample("listOverlays", "200", "twoOverlays");
    it("rejects a date not in YYYY-MM-DD HH:MM:SS, a missing name and a non-string type", () => {
      rejectsMutation(pointer, list(), (c) => { c.data.cta[0].date = "2024-03-01"; });
      rejectsMutation(pointer, list(), (c) => { delete c.data.cta[0].name; });
      rejectsMutation(pointer, list(), (c) => { c.data.cta[0].type = 1; });
    });
  });

  describe("campaigns", () => {
    const savedAdd = responseSchemaPointer(API, "addCampaign", "200");
    const savedUpdate = responseSchemaPointer(API, "updateCampaign", "200");
    const added = (): Json => responseExample("addCampaign", "200", "campaignWithRotatorAdded");
    const updated = (): Json => responseExample("updateCampaign", "200", "campaignUpdated");

    it("add/update responses reject `name` instead of `domain` (quirk)", () => {
      for (const [pointer, example] of [[savedAdd, added()], [savedUpdate, updated()]] as const) {
        rejectsMutation(pointer, example, (c) => {
          c.name = c.domain;
          delete c.domain;
        });
        rejectsMutation(pointer, example, (c) => { c.name = c.domain; });
        rejectsMutation(pointer, example, (c) => { delete c.domain; });
      }
    });

    it("rotator is a URL or false, nothing else (quirk)", () => {
      for (const [pointer, example] of [[savedAdd, added()], [savedUpdate, updated()]] as const) {
        const none = structuredClone(example);
        none.rotator = false;
        expectValid(pointer, none);
        rejectsMutation(pointer, example, (c) => { c.rotator = true; });
        rejectsMutation(pointer, example, (c) => { c.rotator = null; });
        rejectsMutation(pointer, example, (c) => { c.rotator = "spring-launch"; });
        rejectsMutation(pointer, example, (c) => { c.rotator = ""; });
        rejectsMutation(pointer, example, (c) => { delete c.rotator; });
      }
      const listPointer = responseSchemaPointer(API, "listCampaigns", "200");
      const list = responseExample("listCampaigns", "200", "twoCampaigns");
      rejectsMutation(listPointer, list, (c) => { c.data.campaigns[1].rotator = true; });
      rejectsMutation(listPointer, list, (c) => { c.data.campaigns[0].rotator = "not a url"; });
    });

    it("listed campaigns carry `name`, not `domain`", () => {
      const listPointer = responseSchemaPointer(API, "listCampaigns", "200");
      rejectsMutation(listPointer, responseExample("listCampaigns", "200", "twoCampaigns"), (c) => {
        c.data.campaigns[0].domain = c.data.campaigns[0].name;
        delete c.data.campaigns[0].name;
      });
    });

    it("rejects a non-boolean public flag and a non-URL list page", () => {
      rejectsMutation(savedAdd, added(), (c) => { c.public = "true"; });
      rejectsMutation(savedAdd, added(), (c) => { c.list = "/u/demo/201"; });
      rejectsMutation(savedAdd, added(), (c) => { c.id = "201"; });
    });

    it("add body: all optional, closed, typed", () => {
      const body = requestSchemaPointer(API, "addCampaign");
      rejectsMutation(body, requestExample("addCampaign", "campaignWithRotator"), (c) => { c.public = 1; });
      rejectsMutation(body, requestExample("addCampaign", "campaignWithRotator"), (c) => { c.rotator = "https://go.example.com/r/x"; });
      rejectsMutation(body, requestExample("addCampaign", "campaignWithoutRotator"), (c) => { c.name = 42; });
    });

    it("update body requires name and is closed", () => {
      const body = requestSchemaPointer(API, "updateCampaign");
      rejectsMutation(body, requestExample("updateCampaign", "renameCampaign"), (c) => { delete c.name; });
      rejectsMutation(body, requestExample("updateCampaign", "nameOnly"), (c) => { c.domain = "Spring Launch"; });
      rejectsMutation(body, requestExample("updateCampaign", "renameCampaign"), (c) => { c.slug = false; });
    });
  });

  describe("channels", () => {
    const listPointer = responseSchemaPointer(API, "listChannels", "200");
    const list = (): Json => responseExample("listChannels", "200", "twoChannels");
    it("reads color as a string (its HEX spelling is not shown) and rejects a non-string color", () => {
      rejectsMutation(listPointer, list(), (c) => { c.data.channels[0].color = 0x1e88e5; });
      const spelledWithoutHash = list();
      spelledWithoutHash.data.channels[0].color = "1E88E5";
      expectValid(listPointer, spelledWithoutHash);
    });
    it("rejects a non-boolean starred and a missing name; description, color and starred are optional on read as on add", () => {
      rejectsMutation(listPointer, list(), (c) => { c.data.channels[0].starred = 1; });
      rejectsMutation(listPointer, list(), (c) => { delete c.data.channels[1].name; });
      const bare = list();
      for (const key of ["description", "color", "starred"]) delete bare.data.channels[1][key];
      expectValid(listPointer, bare);
    });
    it("add body requires name, checks color, and is closed", () => {
      const body = requestSchemaPointer(API, "addChannel");
      rejectsMutation(body, requestExample("addChannel", "starredChannel"), (c) => { delete c.name; });
      // Request side: our clients send the #RGB / #RRGGBB form (x-assumption); the provider may accept more.
      rejectsMutation(body, requestExample("addChannel", "starredChannel"), (c) => { c.color = "green"; });
      rejectsMutation(body, requestExample("addChannel", "starredChannel"), (c) => { c.color = "#12345"; });
      rejectsMutation(body, requestExample("addChannel", "nameOnly"), (c) => { c.public = true; });
      rejectsMutation(body, requestExample("addChannel", "starredChannel"), (c) => { c.starred = "yes"; });
    });
    it("creation response (open) still requires integer error 0 and an integer id", () => {
      const pointer = responseSchemaPointer(API, "addChannel", "200");
      const example = responseExample("addChannel", "200", "channelAdded");
      rejectsMutation(pointer, example, (c) => { delete c.id; });
      rejectsMutation(pointer, example, (c) => { c.id = "302"; });
      rejectsMutation(pointer, example, (c) => { delete c.error; });
    });
  });

  describe("channel items", () => {
    const pointer = responseSchemaPointer(API, "listChannelItems", "200");
    const list = (): Json => responseExample("listChannelItems", "200", "marketingChannelItems");
    it("rejects a date not in YYYY-MM-DD", () => {
      rejectsMutation(pointer, list(), (c) => { c.data.items[0].date = "2024-03-02 10:00:00"; });
      rejectsMutation(pointer, list(), (c) => { c.data.items[0].date = "02/03/2024"; });
    });
    it("rejects non-URL preview and link, a non-string type and a missing title", () => {
      rejectsMutation(pointer, list(), (c) => { c.data.items[0].preview = "spring-sale"; });
      rejectsMutation(pointer, list(), (c) => { c.data.items[1].link = "go.example.com/demo"; });
      rejectsMutation(pointer, list(), (c) => { c.data.items[0].type = ["links"]; });
      rejectsMutation(pointer, list(), (c) => { delete c.data.items[0].title; });
    });
  });
});
