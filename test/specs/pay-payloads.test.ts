// The pay contract: every wrong payload is a valid example with exactly one change, so each rejection below is
// caused by the quirk or rule under test and nothing else.
import { describe, it } from "vitest";
import {
  balanceResponse,
  createdResponse,
  ERROR,
  expectInvalid,
  expectValid,
  mutate,
  ORDER,
  ordersResponse,
  paidOrder,
  REQUEST,
  requests,
  RESPONSE,
  SHOP,
  shopsResponse,
  unpaidOrder,
} from "./support/pay.js";

describe("pay: wrong payloads are rejected", () => {
  describe("Order", () => {
    it("rejects amount or fee with 2 fraction digits", () => {
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.amount = "1500.00")),
      );
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.fee = "45.00")),
      );
      expectInvalid(
        RESPONSE.listOrders,
        mutate(ordersResponse, (r) => (r.data[0].amount = "1500.00")),
      );
    });

    it("rejects amount as a number and with 9 fraction digits", () => {
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.amount = 1500)),
      );
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.amount = "1500.000000000")),
      );
    });

    it("does not tie status to date_payed: the seed only saw status 0 with null and 1 with a timestamp", () => {
      expectValid(
        ORDER,
        mutate(paidOrder, (o) => (o.date_payed = null)),
      );
      expectValid(
        ORDER,
        mutate(unpaidOrder, (o) => (o.date_payed = "2024-03-02 15:20:00")),
      );
      expectValid(
        ORDER,
        mutate(unpaidOrder, (o) => (o.status = 2)),
      );
    });

    it("rejects timestamps in another format", () => {
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.date_payed = "2024-03-02T14:07:40Z")),
      );
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.date_created = "2024-03-02")),
      );
    });

    it("rejects date_paid instead of date_payed", () => {
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => {
          o.date_paid = o.date_payed;
          delete o.date_payed;
        }),
      );
    });

    it("rejects test_order as a boolean or outside 0/1", () => {
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.test_order = false)),
      );
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.test_order = 2)),
      );
    });

    it("rejects a currency code string in currency_id", () => {
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.currency_id = "RUB")),
      );
    });

    it("rejects an extra field and a missing field (closed)", () => {
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => (o.currency = "RUB")),
      );
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => delete o.payment_id),
      );
    });

    it("rejects an object in data of the order list", () => {
      expectInvalid(
        RESPONSE.listOrders,
        mutate(ordersResponse, (r) => (r.data = { orders: r.data })),
      );
    });
  });

  describe("Shop", () => {
    const shop = shopsResponse.data.shops[0];

    it("rejects an extra field (closed)", () => {
      expectInvalid(
        SHOP,
        mutate(shop, (s) => (s.currency = "RUB")),
      );
      expectInvalid(
        RESPONSE.listShops,
        mutate(shopsResponse, (r) => (r.data.shops[0].owner = 18452)),
      );
    });

    it("rejects id as a string (strings are for requests only)", () => {
      expectInvalid(
        SHOP,
        mutate(shop, (s) => (s.id = "3561")),
      );
    });

    it("rejects date_added in another format, status as a string, and a missing public_key", () => {
      expectInvalid(
        SHOP,
        mutate(shop, (s) => (s.date_added = "2023-09-14T10:22:05Z")),
      );
      expectInvalid(
        SHOP,
        mutate(shop, (s) => (s.status = "1")),
      );
      expectInvalid(
        SHOP,
        mutate(shop, (s) => delete s.public_key),
      );
    });

    it("rejects an extra field in the listShops data", () => {
      expectInvalid(
        RESPONSE.listShops,
        mutate(shopsResponse, (r) => (r.data.total = 2)),
      );
      expectInvalid(
        RESPONSE.listShops,
        mutate(shopsResponse, (r) => delete r.data.user_id),
      );
    });
  });
});

describe("pay: wrong payloads are rejected", () => {
  describe("request bodies", () => {
    it.each(Object.keys(REQUEST) as Array<keyof typeof REQUEST>)("%s rejects shop_id as an integer", (operationId) => {
      expectValid(REQUEST[operationId], requests[operationId]);
      expectInvalid(
        REQUEST[operationId],
        mutate(requests[operationId], (b) => (b.shop_id = Number(b.shop_id))),
      );
    });

    it.each(Object.keys(REQUEST) as Array<keyof typeof REQUEST>)(
      "%s rejects a missing nonce or shop_id",
      (operationId) => {
        expectInvalid(
          REQUEST[operationId],
          mutate(requests[operationId], (b) => delete b.nonce),
        );
        expectInvalid(
          REQUEST[operationId],
          mutate(requests[operationId], (b) => delete b.shop_id),
        );
      },
    );

    it.each(Object.keys(REQUEST) as Array<keyof typeof REQUEST>)(
      "%s rejects a fractional nonce, a string nonce and an extra field",
      (operationId) => {
        expectInvalid(
          REQUEST[operationId],
          mutate(requests[operationId], (b) => (b.nonce = 1.5)),
        );
        expectInvalid(
          REQUEST[operationId],
          mutate(requests[operationId], (b) => (b.nonce = String(b.nonce))),
        );
        expectInvalid(
          REQUEST[operationId],
          mutate(requests[operationId], (b) => (b.signature = "0000")),
        );
      },
    );

    it("listOrders rejects page 0 and a string page", () => {
      expectInvalid(
        REQUEST.listOrders,
        mutate(requests.listOrders, (b) => (b.page = 0)),
      );
      expectInvalid(
        REQUEST.listOrders,
        mutate(requests.listOrders, (b) => (b.page = "1")),
      );
    });

    it("createOrder rejects fields and receipt sent as arrays", () => {
      expectInvalid(
        REQUEST.createOrder,
        mutate(requests.createOrder, (b) => (b.fields = [b.fields.email, b.fields.phone])),
      );
      expectInvalid(
        REQUEST.createOrder,
        mutate(requests.createOrder, (b) => (b.receipt = b.receipt.items)),
      );
    });

    it("createOrder rejects amount as a decimal string and payment_system as a string", () => {
      expectInvalid(
        REQUEST.createOrder,
        mutate(requests.createOrder, (b) => (b.amount = "2490.00000000")),
      );
      expectInvalid(
        REQUEST.createOrder,
        mutate(requests.createOrder, (b) => (b.payment_system = "4")),
      );
    });

    it("createOrder rejects cart lines with a fractional count or a string price", () => {
      expectInvalid(
        REQUEST.createOrder,
        mutate(requests.createOrder, (b) => (b.receipt.items[0].count = 1.5)),
      );
      expectInvalid(
        REQUEST.createOrder,
        mutate(requests.createOrder, (b) => (b.receipt.items[0].price = "2490")),
      );
      expectInvalid(
        REQUEST.createOrder,
        mutate(requests.createOrder, (b) => (b.fields.email = 42)),
      );
    });
  });

  describe("balance", () => {
    it("rejects a balance with 8 fraction digits", () => {
      expectInvalid(
        RESPONSE.getBalance,
        mutate(balanceResponse, (r) => (r.data.balance.RUB = "12840.50000000")),
      );
    });

    it("rejects a balance as a number and with 1 fraction digit", () => {
      expectInvalid(
        RESPONSE.getBalance,
        mutate(balanceResponse, (r) => (r.data.balance.RUB = 12840.5)),
      );
      expectInvalid(
        RESPONSE.getBalance,
        mutate(balanceResponse, (r) => (r.data.balance.RUB = "12840.5")),
      );
    });

    it("rejects an extra field and user_id as a string", () => {
      expectInvalid(
        RESPONSE.getBalance,
        mutate(balanceResponse, (r) => (r.data.currency = "RUB")),
      );
      expectInvalid(
        RESPONSE.getBalance,
        mutate(balanceResponse, (r) => (r.data.user_id = "18452")),
      );
    });
  });

  describe("createOrder response", () => {
    it("rejects a url that is not a URI, an id as a string and an extra field", () => {
      expectInvalid(
        RESPONSE.createOrder,
        mutate(createdResponse, (r) => (r.data.url = "not a link")),
      );
      expectInvalid(
        RESPONSE.createOrder,
        mutate(createdResponse, (r) => (r.data.id = "910002")),
      );
      expectInvalid(
        RESPONSE.createOrder,
        mutate(createdResponse, (r) => (r.data.status = 0)),
      );
    });
  });
});

describe("pay: wrong payloads are rejected", () => {
  describe("envelope", () => {
    it.each([
      ["listShops", shopsResponse],
      ["listOrders", ordersResponse],
      ["createOrder", createdResponse],
      ["getBalance", balanceResponse],
    ] as const)(
      "%s success envelope rejects a non-empty desc, a missing data and an extra key; another type is the failure envelope",
      (operationId, example) => {
        const pointer = RESPONSE[operationId];
        expectValid(pointer, example);
        expectInvalid(
          pointer,
          mutate(example, (r) => (r.desc = "OK")),
        );
        // With a type other than success the body is the failure envelope, whose data the seed does not show.
        expectValid(
          pointer,
          mutate(example, (r) => (r.type = "error")),
        );
        expectInvalid(
          pointer,
          mutate(example, (r) => {
            r.type = "error";
            delete r.desc;
          }),
        );
        expectInvalid(
          pointer,
          mutate(example, (r) => delete r.data),
        );
        expectInvalid(
          pointer,
          mutate(example, (r) => (r.status = "ok")),
        );
      },
    );

    it("error envelope rejects type success, a missing desc and an extra key", () => {
      const error = { type: "error", desc: "Invalid signature" };
      expectValid(ERROR, error);
      expectInvalid(
        ERROR,
        mutate(error, (e) => (e.type = "success")),
      );
      expectInvalid(
        ERROR,
        mutate(error, (e) => delete e.desc),
      );
      expectInvalid(
        ERROR,
        mutate(error, (e) => (e.code = 401)),
      );
    });
  });
});
