/* eslint-disable max-lines -- over the cap since the code was formatted at 120 columns; to be split */
// Contract tests of the links API: one-change wrong payloads that every schema must reject.
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

describe("links: wrong payloads are rejected", () => {
  describe("overlays", () => {
    const pointer = responseSchemaPointer(API, "listOverlays", "200");
    const list = (): Json => responseExample("listOverlays", "200", "twoOverlays");
    it("rejects a date not in YYYY-MM-DD HH:MM:SS, a missing name and a non-string type", () => {
      rejectsMutation(pointer, list(), (c) => {
        c.data.cta[0].date = "2024-03-01";
      });
      rejectsMutation(pointer, list(), (c) => {
        delete c.data.cta[0].name;
      });
      rejectsMutation(pointer, list(), (c) => {
        c.data.cta[0].type = 1;
      });
    });
  });

  describe("campaigns", () => {
    const savedAdd = responseSchemaPointer(API, "addCampaign", "200");
    const savedUpdate = responseSchemaPointer(API, "updateCampaign", "200");
    const added = (): Json => responseExample("addCampaign", "200", "campaignWithRotatorAdded");
    const updated = (): Json => responseExample("updateCampaign", "200", "campaignUpdated");

    it("add/update responses reject `name` instead of `domain` (quirk)", () => {
      for (const [pointer, example] of [
        [savedAdd, added()],
        [savedUpdate, updated()],
      ] as const) {
        rejectsMutation(pointer, example, (c) => {
          c.name = c.domain;
          delete c.domain;
        });
        rejectsMutation(pointer, example, (c) => {
          c.name = c.domain;
        });
        rejectsMutation(pointer, example, (c) => {
          delete c.domain;
        });
      }
    });

    it("rotator is a URL or false, nothing else (quirk)", () => {
      for (const [pointer, example] of [
        [savedAdd, added()],
        [savedUpdate, updated()],
      ] as const) {
        const none = structuredClone(example);
        none.rotator = false;
        expectValid(pointer, none);
        rejectsMutation(pointer, example, (c) => {
          c.rotator = true;
        });
        rejectsMutation(pointer, example, (c) => {
          c.rotator = null;
        });
        rejectsMutation(pointer, example, (c) => {
          c.rotator = "spring-launch";
        });
        rejectsMutation(pointer, example, (c) => {
          c.rotator = "";
        });
        rejectsMutation(pointer, example, (c) => {
          delete c.rotator;
        });
      }
      const listPointer = responseSchemaPointer(API, "listCampaigns", "200");
      const list = responseExample("listCampaigns", "200", "twoCampaigns");
      rejectsMutation(listPointer, list, (c) => {
        c.data.campaigns[1].rotator = true;
      });
      rejectsMutation(listPointer, list, (c) => {
        c.data.campaigns[0].rotator = "not a url";
      });
    });

    it("listed campaigns carry `name`, not `domain`", () => {
      const listPointer = responseSchemaPointer(API, "listCampaigns", "200");
      rejectsMutation(listPointer, responseExample("listCampaigns", "200", "twoCampaigns"), (c) => {
        c.data.campaigns[0].domain = c.data.campaigns[0].name;
        delete c.data.campaigns[0].name;
      });
    });

    it("rejects a non-boolean public flag and a non-URL list page", () => {
      rejectsMutation(savedAdd, added(), (c) => {
        c.public = "true";
      });
      rejectsMutation(savedAdd, added(), (c) => {
        c.list = "/u/demo/201";
      });
      rejectsMutation(savedAdd, added(), (c) => {
        c.id = "201";
      });
    });

    it("add body: all optional, closed, typed", () => {
      const body = requestSchemaPointer(API, "addCampaign");
      rejectsMutation(body, requestExample("addCampaign", "campaignWithRotator"), (c) => {
        c.public = 1;
      });
      rejectsMutation(body, requestExample("addCampaign", "campaignWithRotator"), (c) => {
        c.rotator = "https://go.example.com/r/x";
      });
      rejectsMutation(body, requestExample("addCampaign", "campaignWithoutRotator"), (c) => {
        c.name = 42;
      });
    });

    it("update body requires name and is closed", () => {
      const body = requestSchemaPointer(API, "updateCampaign");
      rejectsMutation(body, requestExample("updateCampaign", "renameCampaign"), (c) => {
        delete c.name;
      });
      rejectsMutation(body, requestExample("updateCampaign", "nameOnly"), (c) => {
        c.domain = "Spring Launch";
      });
      rejectsMutation(body, requestExample("updateCampaign", "renameCampaign"), (c) => {
        c.slug = false;
      });
    });
  });
});

describe("links: wrong payloads are rejected", () => {
  describe("channels", () => {
    const listPointer = responseSchemaPointer(API, "listChannels", "200");
    const list = (): Json => responseExample("listChannels", "200", "twoChannels");
    it("reads color as a string (its HEX spelling is not shown) and rejects a non-string color", () => {
      rejectsMutation(listPointer, list(), (c) => {
        c.data.channels[0].color = 0x1e88e5;
      });
      const spelledWithoutHash = list();
      spelledWithoutHash.data.channels[0].color = "1E88E5";
      expectValid(listPointer, spelledWithoutHash);
    });
    it("rejects a non-boolean starred and a missing name; description, color and starred are optional on read as on add", () => {
      rejectsMutation(listPointer, list(), (c) => {
        c.data.channels[0].starred = 1;
      });
      rejectsMutation(listPointer, list(), (c) => {
        delete c.data.channels[1].name;
      });
      const bare = list();
      for (const key of ["description", "color", "starred"]) delete bare.data.channels[1][key];
      expectValid(listPointer, bare);
    });
    it("add body requires name, checks color, and is closed", () => {
      const body = requestSchemaPointer(API, "addChannel");
      rejectsMutation(body, requestExample("addChannel", "starredChannel"), (c) => {
        delete c.name;
      });
      // Request side: our clients send the #RGB / #RRGGBB form (x-assumption); the provider may accept more.
      rejectsMutation(body, requestExample("addChannel", "starredChannel"), (c) => {
        c.color = "green";
      });
      rejectsMutation(body, requestExample("addChannel", "starredChannel"), (c) => {
        c.color = "#12345";
      });
      rejectsMutation(body, requestExample("addChannel", "nameOnly"), (c) => {
        c.public = true;
      });
      rejectsMutation(body, requestExample("addChannel", "starredChannel"), (c) => {
        c.starred = "yes";
      });
    });
    it("creation response (open) still requires integer error 0 and an integer id", () => {
      const pointer = responseSchemaPointer(API, "addChannel", "200");
      const example = responseExample("addChannel", "200", "channelAdded");
      rejectsMutation(pointer, example, (c) => {
        delete c.id;
      });
      rejectsMutation(pointer, example, (c) => {
        c.id = "302";
      });
      rejectsMutation(pointer, example, (c) => {
        delete c.error;
      });
    });
  });

  describe("channel items", () => {
    const pointer = responseSchemaPointer(API, "listChannelItems", "200");
    const list = (): Json => responseExample("listChannelItems", "200", "marketingChannelItems");
    it("rejects a date not in YYYY-MM-DD", () => {
      rejectsMutation(pointer, list(), (c) => {
        c.data.items[0].date = "2024-03-02 10:00:00";
      });
      rejectsMutation(pointer, list(), (c) => {
        c.data.items[0].date = "02/03/2024";
      });
    });
    it("rejects non-URL preview and link, a non-string type and a missing title", () => {
      rejectsMutation(pointer, list(), (c) => {
        c.data.items[0].preview = "spring-sale";
      });
      rejectsMutation(pointer, list(), (c) => {
        c.data.items[1].link = "go.example.com/demo";
      });
      rejectsMutation(pointer, list(), (c) => {
        c.data.items[0].type = ["links"];
      });
      rejectsMutation(pointer, list(), (c) => {
        delete c.data.items[0].title;
      });
    });
  });
});
