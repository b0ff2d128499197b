// Contract tests of the links API: one-change wrong payloads that every schema must reject. Here the envelopes, the
// account and the domains; overlays, campaigns and channels are links-payloads-campaigns-channels.test.ts's.
import { describe, it } from "vitest";
import { requestSchemaPointer, responseSchemaPointer } from "../support/bundle-nodes.js";
import {
  API,
  defaultSchemaPointer,
  expectValid,
  type Json,
  LIST_OPERATIONS,
  rejectsMutation,
  requestExample,
  responseExample,
} from "./support/links.js";

describe("links: wrong payloads are rejected", () => {
  describe("envelope", () => {
    for (const [operationId, [example, arrayKey]] of Object.entries(LIST_OPERATIONS)) {
      describe(operationId, () => {
        const pointer = responseSchemaPointer(API, operationId, "200");
        it('rejects the integer 0 as error (quirk: lists carry the string "0")', () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
            c.error = 0;
          });
        });
        it('rejects the string "1" as error', () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
            c.error = "1";
          });
        });
        it("rejects a missing error key", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
            delete c.error;
          });
        });
        it("rejects an extra top-level key", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
            c.message = "ok";
          });
        });
        for (const field of ["result", "perpage", "currentpage", "nextpage", "maxpage"]) {
          it(`rejects a missing or string ${field}`, () => {
            rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
              delete c.data[field];
            });
            rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
              c.data[field] = String(c.data[field]);
            });
          });
        }
        it(`rejects the array under another key than ${arrayKey}`, () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
            c.data.list = c.data[arrayKey];
            delete c.data[arrayKey];
          });
        });
        it("rejects an extra key in data (closed)", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
            c.data.total = 2;
          });
        });
        it("rejects an extra key in an item (closed)", () => {
          rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
            c.data[arrayKey][0].extra = true;
          });
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
        rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
          c.error = "0";
        });
        // error 1 with the success fields is neither envelope (the error envelope is closed)...
        rejectsMutation(pointer, responseExample(operationId, "200", example), (c) => {
          c.error = 2;
        });
      });
    }

    it("message responses are closed and require message", () => {
      const pointer = responseSchemaPointer(API, "deleteDomain", "200");
      const example = responseExample("deleteDomain", "200", "domainDeleted");
      rejectsMutation(pointer, example, (c) => {
        delete c.message;
      });
      rejectsMutation(pointer, example, (c) => {
        c.data = {};
      });
    });

    it("the domain creation response requires an integer id and is closed", () => {
      const pointer = responseSchemaPointer(API, "addDomain", "200");
      const example = responseExample("addDomain", "200", "domainAdded");
      rejectsMutation(pointer, example, (c) => {
        delete c.id;
      });
      rejectsMutation(pointer, example, (c) => {
        c.id = "102";
      });
      rejectsMutation(pointer, example, (c) => {
        c.domain = "https://links.example.org";
      });
    });
  });
});

describe("links: wrong payloads are rejected", () => {
  describe("error envelope (default)", () => {
    const pointer = defaultSchemaPointer("getAccount");
    const example = (): Json => responseExample("getAccount", "default", "missingApiKey");
    it('rejects error 0, the string "1", a missing message, a non-string message and extra keys', () => {
      rejectsMutation(pointer, example(), (c) => {
        c.error = 0;
      });
      rejectsMutation(pointer, example(), (c) => {
        c.error = "1";
      });
      rejectsMutation(pointer, example(), (c) => {
        delete c.message;
      });
      rejectsMutation(pointer, example(), (c) => {
        c.message = 404;
      });
      rejectsMutation(pointer, example(), (c) => {
        c.code = 401;
      });
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
      rejectsMutation(pointer, example(), (c) => {
        c.data.expires = "2025-12-31T23:59:59Z";
      });
      rejectsMutation(pointer, example(), (c) => {
        c.data.registered = "2024-01-15";
      });
    });
    it("rejects a bad e-mail, a non-URL avatar, a string id, a missing field and an extra field", () => {
      // The seed types the account e-mail only as a string, so any string passes; avatar is a URL.
      expectValid(pointer, { ...example(), data: { ...example().data, email: "demo-at-example.com" } });
      rejectsMutation(pointer, example(), (c) => {
        c.data.email = 42;
      });
      rejectsMutation(pointer, example(), (c) => {
        c.data.avatar = "demo.png";
      });
      rejectsMutation(pointer, example(), (c) => {
        c.data.id = "1";
      });
      rejectsMutation(pointer, example(), (c) => {
        delete c.data.status;
      });
      rejectsMutation(pointer, example(), (c) => {
        c.data.apikey = "secret";
      });
    });
    it("account update body is closed with email and password only", () => {
      const body = requestSchemaPointer(API, "updateAccount");
      rejectsMutation(body, requestExample("updateAccount", "changeEmailAndPassword"), (c) => {
        c.username = "demo2";
      });
      rejectsMutation(body, requestExample("updateAccount", "changeEmailAndPassword"), (c) => {
        c.email = "not-an-email";
      });
      rejectsMutation(body, requestExample("updateAccount", "changePassword"), (c) => {
        c.password = 12345678;
      });
    });
  });

  describe("domains", () => {
    const listPointer = responseSchemaPointer(API, "listDomains", "200");
    const list = (): Json => responseExample("listDomains", "200", "twoDomains");
    it("rejects a domain without http or https scheme", () => {
      rejectsMutation(listPointer, list(), (c) => {
        c.data.domains[0].domain = "go.example.com";
      });
      rejectsMutation(listPointer, list(), (c) => {
        c.data.domains[0].domain = "ftp://go.example.com";
      });
    });
    it("rejects non-string redirects and a missing id or domain; the redirects are optional on read as on add", () => {
      rejectsMutation(listPointer, list(), (c) => {
        c.data.domains[0].redirectroot = 1;
      });
      rejectsMutation(listPointer, list(), (c) => {
        delete c.data.domains[1].id;
      });
      rejectsMutation(listPointer, list(), (c) => {
        delete c.data.domains[1].domain;
      });
      const withoutRedirects = list();
      delete withoutRedirects.data.domains[1].redirect404;
      delete withoutRedirects.data.domains[1].redirectroot;
      expectValid(listPointer, withoutRedirects);
    });
    it("add requires domain with scheme, closed body", () => {
      const body = requestSchemaPointer(API, "addDomain");
      rejectsMutation(body, requestExample("addDomain", "domainWithRedirects"), (c) => {
        delete c.domain;
      });
      rejectsMutation(body, requestExample("addDomain", "domainOnly"), (c) => {
        c.domain = "links.example.org";
      });
      rejectsMutation(body, requestExample("addDomain", "domainOnly"), (c) => {
        c.redirect404 = "not found";
      });
      rejectsMutation(body, requestExample("addDomain", "domainOnly"), (c) => {
        c.name = "Links";
      });
    });
    it("update takes only the redirects (closed)", () => {
      const body = requestSchemaPointer(API, "updateDomain");
      rejectsMutation(body, requestExample("updateDomain", "bothRedirects"), (c) => {
        c.domain = "https://go.example.com";
      });
      rejectsMutation(body, requestExample("updateDomain", "rootRedirectOnly"), (c) => {
        c.redirectroot = "home";
      });
    });
  });
});
