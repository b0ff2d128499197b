// Sandbox handlers are typed by the generated operation types. The type assertions below are checked by
// `npm run check:ts` (an unused @ts-expect-error fails it); the runtime part checks the table lookup by operationId.
import { describe, expect, it } from "vitest";
import { handler, OperationServer } from "../../mock/sandbox/operations.js";

describe("typed handlers", () => {
  it("take the contract's parameter and body types and must answer a documented response", () => {
    const listDomains = handler<"links", "listDomains", null>(({ params }) => {
      const limit: number | undefined = params.limit;
      return {
        status: 200,
        body: {
          error: "0",
          data: { result: 0, perpage: limit ?? 10, currentpage: 1, nextpage: 1, maxpage: 1, domains: [] },
        },
      };
    });
    // @ts-expect-error a body the contract does not allow for 200 (domains must be an array)
    handler<"links", "listDomains", null>(() => ({ status: 200, body: { error: "0", data: { domains: "none" } } }));
    // @ts-expect-error the refusal envelope requires `message`
    handler<"links", "getAccount", null>(() => ({ status: 404, body: { error: 1 } }));
    // @ts-expect-error no such operationId
    handler<"links", "listDomainz", null>(() => ({ status: 200, body: {} }));
    handler<"catalog", "createProduct", null>(({ body, params }) => {
      // @ts-expect-error the body's title is a string
      const title: number = body.title;
      const key: string = params["Idempotency-Key"];
      return { status: 422, body: { error: `${title} ${key}` } };
    });
    expect(typeof listDomains).toBe("function");
  });

  it("refuse to start without a handler for every operation of the API", () => {
    expect(() => new OperationServer("links", {})).toThrow(/the links sandbox does not implement getAccount, /);
  });
});
