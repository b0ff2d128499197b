// Identity API (OpenID Connect provider), logout (RP-Initiated Logout), by query and by form.
// Every wrong payload is a valid example changed in exactly one way, so it fails only for the intended reason.
import { describe, expect, it } from "vitest";
import { findOperation, requestSchemaPointer, resolvePointer } from "../support/bundle-nodes.js";
import {
  API,
  expectInvalid,
  expectValid,
  FORM,
  parameterSchemaPointer,
  requestExample,
  tokensExample,
} from "./support/identity.js";

describe("identity: logout (RP-Initiated Logout)", () => {
  it("takes the same parameters in the query (GET) and the form body (POST)", () => {
    const names = ["id_token_hint", "logout_hint", "client_id", "post_logout_redirect_uri", "state", "ui_locales"];
    const op = findOperation(API, "logout");
    const query = (op.operation.parameters as any[]).map((_p, i) =>
      resolvePointer(API, `${op.pointer}/parameters/${i}`),
    );
    expect(query.map((p) => p.name)).toEqual(names);
    expect(query.every((p) => p.in === "query" && p.required === false)).toBe(true);
    const form = resolvePointer(API, requestSchemaPointer(API, "logoutWithForm", FORM));
    expect(Object.keys(form.properties)).toEqual(names);
  });

  it("accepts the form example and rejects an id_token_hint that is not a JWT", () => {
    const pointer = requestSchemaPointer(API, "logoutWithForm", FORM);
    const data = requestExample("logoutWithForm", "withIdTokenHint", FORM);
    expectValid(pointer, data);
    expect(data.id_token_hint).toBe(tokensExample().id_token);
    expectInvalid(pointer, { ...data, id_token_hint: "alice" });
    expectInvalid(parameterSchemaPointer("logout", "id_token_hint"), "alice");
  });

  it("redirects with state to the post_logout_redirect_uri", () => {
    for (const operationId of ["logout", "logoutWithForm"]) {
      const redirect = resolvePointer(API, `${findOperation(API, operationId).pointer}/responses/302`);
      expect(redirect.headers.Location.required).toBe(true);
      expect(new URL(redirect.headers.Location.examples.withState.value).searchParams.get("state")).toBe(
        "q7Wn3RcY8dLs",
      );
    }
  });
});
