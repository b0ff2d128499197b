// Which documented response judges a status (conformance/contract/words.ts judgedStatus): the exact code, its
// range, a code of the same class whose response is an x-assumption (the status is then a broken assumption, judged by
// that response), else default. And an x-assumption on a response is about its status: it does not reach into the body.
import type { ErrorObject } from "ajv";
import { describe, expect, it } from "vitest";
import { judgedStatus, responseErrorWord } from "../../conformance/contract/words.js";
import { type ApiName, loadContract } from "../../lib/contract/index.js";

const operation = (api: ApiName, operationId: string) => loadContract(api).findOperation(operationId)!;

describe("judgedStatus", () => {
  it("an assumed success code judges the other 2xx statuses, with the assumption's reason", () => {
    for (const [api, operationId] of [
      ["links", "addDomain"],
      ["pay", "createOrder"],
      ["catalog", "createProduct"],
    ] as const) {
      expect(judgedStatus(api, operation(api, operationId), 200), operationId).toEqual({ key: "200" });
      const judged = judgedStatus(api, operation(api, operationId), 201);
      expect(judged?.key, operationId).toBe("200");
      expect(judged?.assumption, operationId).toMatch(/^The provider shows no success status code/);
    }
  });

  it("an error status of links and pay falls under default; a catalog 403 is its own, a catalog 401 default", () => {
    expect(judgedStatus("links", operation("links", "getAccount"), 401)).toEqual({ key: "default" });
    expect(judgedStatus("pay", operation("pay", "getBalance"), 500)).toEqual({ key: "default" });
    expect(judgedStatus("catalog", operation("catalog", "getShop"), 403)).toEqual({ key: "403" });
    expect(judgedStatus("catalog", operation("catalog", "getShop"), 401)).toEqual({ key: "default" });
  });

  it("identity: the assumed 400 of the authorize and logout error pages judges another 4xx; a code standards fix does not", () => {
    for (const operationId of ["authorize", "logout", "logoutWithForm"]) {
      const judged = judgedStatus("identity", operation("identity", operationId), 422);
      expect(judged?.key, operationId).toBe("400");
      expect(judged?.assumption, operationId).toMatch(
        /the status 400 of that page(, and its media type,)? (is|are) our choice/,
      );
    }
    // The token endpoint's 200 and 400 come from RFC 6749: a 201 or a 422 there is undocumented, not assumed.
    expect(judgedStatus("identity", operation("identity", "exchangeToken"), 201)).toBeUndefined();
    expect(judgedStatus("identity", operation("identity", "exchangeToken"), 422)).toBeUndefined();
    // Discovery declares no error: any other status is undocumented.
    expect(judgedStatus("identity", operation("identity", "getOpenIdConfiguration"), 404)).toBeUndefined();
    expect(judgedStatus("identity", operation("identity", "getOpenIdConfiguration"), 203)).toBeUndefined();
  });
});

describe("an x-assumption on a response", () => {
  it("is about its status code: a body error under it is not an assumption", () => {
    const op = operation("links", "getAccount");
    const schema = `${op.pointer}/responses/200/content/application~1json/schema`;
    expect(loadContract("links").resolve(`${op.pointer}/responses/200`)).toHaveProperty("x-assumption");
    const error = {
      keyword: "type",
      instancePath: "/data/id",
      schemaPath: "#/components/schemas/Account/properties/id/type",
      params: { type: "integer" },
    } as unknown as ErrorObject;
    expect(responseErrorWord("links", schema, error, "x-assumption")).toBeUndefined();
  });
});
