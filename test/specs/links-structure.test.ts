// Contract tests of the links API: structural facts and the quirks' positive examples. Wrong payloads are in
// links-payloads.test.ts.
import { describe, expect, it } from "vitest";
import {
  findOperation,
  listOperations,
  loadBundle,
  requestSchemaPointer,
  resolvePointer,
  responseSchemaPointer,
} from "../support/bundle-nodes.js";
import {
  API,
  bodySchemaPointer,
  EXPECTED_OPERATIONS,
  expectInvalid,
  expectValid,
  type Json,
  JSON_MEDIA,
  LIST_OPERATIONS,
  RATE_LIMIT_HEADERS,
  requestExample,
  responseExample,
  undocumentedEntries,
} from "./support/links.js";

describe("links: structure", () => {
  it("has exactly the 15 operations, on the given paths, methods and tags", () => {
    const ops = listOperations(API);
    expect(ops).toHaveLength(15);
    const actual = Object.fromEntries(ops.map((op) => [op.operationId, [op.method, op.path, op.operation.tags?.[0]]]));
    expect(actual).toEqual(EXPECTED_OPERATIONS);
    for (const op of ops) expect(op.operation.tags).toHaveLength(1);
    const doc = loadBundle(API);
    expect(Object.keys(doc.paths ?? {}).sort()).toEqual(
      [...new Set(Object.values(EXPECTED_OPERATIONS).map(([, p]) => p))].sort(),
    );
    expect((doc.tags as Array<{ name: string }>).map((t) => t.name).sort()).toEqual([
      "account",
      "campaigns",
      "channels",
      "domains",
      "overlays",
    ]);
  });

  it("declares the servers in order: live {link_url}, mock, sandbox", () => {
    const servers = loadBundle(API).servers ?? [];
    expect(servers.map((s) => s.url)).toEqual(["{link_url}", "http://127.0.0.1:4011", "http://127.0.0.1:4021"]);
    expect(servers[0]?.variables?.link_url?.default).toBe("http://127.0.0.1:4021");
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
      expect(
        pathParams.map((p: Json) => p.name),
        op.operationId,
      ).toEqual(expectedParams[op.operationId] ?? []);
      for (const p of pathParams) {
        expect(p.required).toBe(true);
        expect(p.schema.type).toBe("integer");
      }
    }
  });
});

describe("links: structure", () => {
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
        expect(Object.keys(response.headers ?? {}).sort(), `${op.operationId} ${status}`).toEqual(
          [...RATE_LIMIT_HEADERS].sort(),
        );
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
      const statuses = Object.keys(op.operation.responses);
      expect(statuses, op.operationId).toEqual(["200", "default"]);
      expect(resolvePointer(API, `${op.pointer}/responses/200`)["x-assumption"]).toMatch(/no success status code/);
      const response = resolvePointer(API, `${op.pointer}/responses/default`);
      expect(response["x-undocumented"]).toEqual(["HTTP status codes for each error case are not shown."]);
      const media = response.content["application/json"];
      expect(media.schema.$ref).toBe("#/components/schemas/ErrorEnvelope");
      const names = Object.keys(media.examples);
      expect(names).toEqual(expect.arrayContaining(["missingApiKey", "expiredApiKey"]));
      for (const name of names) {
        const example = resolvePointer(API, `${op.pointer}/responses/default/content/${JSON_MEDIA}/examples/${name}`);
        expect(example.summary).toMatch(/illustrative/);
      }
    }
    const all = new Set(
      listOperations(API).flatMap((op) =>
        Object.keys(resolvePointer(API, `${op.pointer}/responses/default`).content["application/json"].examples),
      ),
    );
    expect([...all].sort()).toEqual(["expiredApiKey", "missingApiKey", "notFound", "validationFailed"]);
  });
});

describe("links: structure", () => {
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
    for (const re of infoExpected)
      expect(
        info.some((s) => re.test(s)),
        String(re),
      ).toBe(true);

    const at = (pointer: string): string[] => entries.filter((e) => e.at === pointer).map((e) => e.text);
    expect(at("/components/schemas/Account/properties/status").join(" ")).toMatch(/account status is not shown/);
    expect(at("/components/schemas/Overlay/properties/type").join(" ")).toMatch(/overlay type is not shown/);
    expect(at("/components/schemas/ChannelItem/properties/type").join(" ")).toMatch(/channel-item type is not shown/);
    expect(at("/components/parameters/limit").join(" ")).toMatch(/maximum value of limit is not shown/);
    expect(at("/components/headers/X-RateLimit-Reset").join(" ")).toMatch(/unit .* is not shown/);
    expect(at("/paths/~1api~1account~1update/put").join(" ")).toMatch(
      /Required fields for account update are not shown/,
    );
    expect(at("/components/schemas/AccountUpdate").join(" ")).toMatch(
      /Required fields for account update are not shown/,
    );
    expect(at("/paths/~1api~1channel~1add/post").join(" ")).toMatch(/response of channel creation is not shown/);
    expect(at("/components/schemas/ChannelCreated").join(" ")).toMatch(/response of channel creation is not shown/);
    for (const name of ["AuthError", "ValidationError", "NotFoundError", "NotFoundOrValidationError"]) {
      expect(at(`/components/responses/${name}`)).toEqual(["HTTP status codes for each error case are not shown."]);
    }
    for (const e of entries) expect(e.text, e.at).toMatch(/^.{10,}\.$/);
    expect(at("/components/schemas/Domain").join(" ")).toMatch(/domain added without them look like .* is not shown/);
    expect(at("/components/schemas/Channel").join(" ")).toMatch(
      /channel created without them look like .* is not shown/,
    );
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

  it('list responses carry error as the string "0", other successes the integer 0', () => {
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
    expect(responseExample("listCampaigns", "200", "twoCampaigns").data.campaigns.map((c: Json) => c.id)).toEqual([
      201, 202,
    ]);
    expect(responseExample("listChannels", "200", "twoChannels").data.channels.map((c: Json) => c.id)).toEqual([
      301, 302,
    ]);
    // A creation adds to the demo account: its example is not one the account (and so the sandbox) holds already.
    expect(responseExample("addDomain", "200", "domainAdded").id).toBe(103);
    expect(responseExample("listDomains", "200", "twoDomains").data.domains.map((d: Json) => d.domain)).not.toContain(
      requestExample("addDomain", "domainWithRedirects").domain,
    );
    expect(responseExample("updateCampaign", "200", "campaignUpdated").id).toBe(201);
    expect(resolvePointer(API, "/components/parameters/domainId/examples/goExampleCom/value")).toBe(101);
    expect(resolvePointer(API, "/components/parameters/campaignId/examples/springLaunch/value")).toBe(201);
    expect(resolvePointer(API, "/components/parameters/channelId/examples/marketing/value")).toBe(301);
    const itemIds = responseExample("listChannelItems", "200", "marketingChannelItems").data.items.map(
      (i: Json) => i.id,
    );
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
