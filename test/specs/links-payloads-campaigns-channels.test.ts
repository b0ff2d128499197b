// Contract tests of the links API: one-change wrong payloads that every schema must reject. Here overlays,
// campaigns, channels and channel items; the envelopes, the account and the domains are links-payloads.test.ts's.
import { describe, it } from "vitest";
import { requestSchemaPointer, responseSchemaPointer } from "../support/bundle-nodes.js";
import { API, expectValid, type Json, rejectsMutation, requestExample, responseExample } from "./support/links.js";

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
    it(
      "rejects a non-boolean starred and a missing name; " +
        "description, color and starred are optional on read as on add",
      () => {
        rejectsMutation(listPointer, list(), (c) => {
          c.data.channels[0].starred = 1;
        });
        rejectsMutation(listPointer, list(), (c) => {
          delete c.data.channels[1].name;
        });
        const bare = list();
        for (const key of ["description", "color", "starred"]) delete bare.data.channels[1][key];
        expectValid(listPointer, bare);
      },
    );
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
