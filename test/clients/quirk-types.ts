// Compile-time tests of the generated types, checked by `npm run check:ts` (tsc over test/): each
// `@ts-expect-error` fails the build as soon as the quirk it guards is smoothed over in a spec.
import type { paths as CatalogPaths } from "../../clients/catalog.js";
import type { components as IdentityComponents } from "../../clients/identity.js";
import type { LinksClientPaths, components as LinksComponents, paths as LinksPaths } from "../../clients/links.js";
import type { components as PayComponents, PayClientPaths, paths as PayPaths } from "../../clients/pay.js";

type Json<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
/** The success envelope of a links 200 body (the body itself may also be the error envelope). */
type LinksOk<P extends keyof LinksPaths, M extends keyof LinksPaths[P]> = LinksPaths[P][M] extends {
  responses: { 200: infer R };
}
  ? Exclude<Json<R>, LinksComponents["schemas"]["ErrorEnvelope"]>
  : never;

// Errors are signalled in the body: a links or pay body of any status may be the error envelope, so the generated
// types make a raw caller check `error` / `type` before reading `data`; the clients throw it, so their types don't.
type RawAccount = Json<LinksPaths["/api/account"]["get"]["responses"][200]>;
// @ts-expect-error the 200 body may be the error envelope: check `error` first
export const uncheckedUsername = (body: RawAccount): string => body.data.username;
export const checkedUsername = (body: RawAccount): string => (body.error === 0 ? body.data.username : body.message);
export const clientUsername = (body: Json<LinksClientPaths["/api/account"]["get"]["responses"][200]>): string =>
  body.data.username;
type RawBalance = Json<PayPaths["/api/balance/"]["post"]["responses"][200]>;
// @ts-expect-error the 200 body may be the failure envelope, whose data is not shown
export const uncheckedBalance = (body: RawBalance): Record<string, string> => body.data.balance;
export const clientBalance = (
  body: Json<PayClientPaths["/api/balance/"]["post"]["responses"][200]>,
): Record<string, string> => body.data.balance;

// A list response's `error` is the string "0", never the integer 0; other successes carry the integer.
export const listFlag: LinksOk<"/api/campaigns", "get">["error"] = "0";
// @ts-expect-error list responses carry the string form "0"
export const listFlagAsInteger: LinksOk<"/api/campaigns", "get">["error"] = 0;
export const accountFlag: LinksOk<"/api/account", "get">["error"] = 0;
// @ts-expect-error non-list responses carry the integer 0
export const accountFlagAsString: LinksOk<"/api/account", "get">["error"] = "0";

// Campaign add and update return the campaign's name under `domain`.
type CampaignSaved = LinksOk<"/api/campaign/add", "post">;
export const savedName: CampaignSaved["domain"] = "Spring sale";
// @ts-expect-error there is no `name` in the add/update response
export const savedNameKey: CampaignSaved["name"] = "Spring sale";
export const updatedName: LinksOk<"/api/campaign/{id}/update", "put">["domain"] = "Summer sale";

// `rotator` is a URL or false (never true).
type Rotator = LinksComponents["schemas"]["Campaign"]["rotator"];
export const rotatorUrl: Rotator = "https://go.example.com/r/spring";
export const noRotator: Rotator = false;
// @ts-expect-error rotator is never true
export const rotatorTrue: Rotator = true;

// Required request fields are required.
type DomainAdd = LinksComponents["schemas"]["DomainAdd"];
// @ts-expect-error `domain` is required to add a domain
export const domainWithoutUrl: DomainAdd = { redirectroot: "https://example.com" };
type CampaignUpdate = LinksComponents["schemas"]["CampaignUpdate"];
// @ts-expect-error `name` is required to update a campaign
export const campaignWithoutName: CampaignUpdate = { public: true };

// Pay: order amounts are decimal strings, createOrder takes a number; date_payed may be null.
type Order = PayComponents["schemas"]["Order"];
export const amount: Order["amount"] = "25.50000000";
// @ts-expect-error order amounts are strings with 8 fraction digits, not numbers
export const amountAsNumber: Order["amount"] = 25.5;
export const unpaid: Order["date_payed"] = null;
type CreateOrderBody = NonNullable<
  PayClientPaths["/api/createOrder/"]["post"]["requestBody"]
>["content"]["application/json"];
export const createBody: CreateOrderBody = { amount: 25.5, currency: "USD" };
// @ts-expect-error the client adds shop_id itself; the contract's string shop id is not part of the client's body
export const createBodyWithShop: CreateOrderBody = { amount: 25.5, shop_id: 1042 };

// Catalog: request prices are numbers, response prices are decimal strings.
type ProductCreate = CatalogPaths["/admin/seller-api/products"]["post"]["requestBody"]["content"]["application/json"];
type PriceIn = ProductCreate["variants"][number]["prices"][number];
export const priceIn: PriceIn = { amount: 10.5, currency_code: "eur" };
// @ts-expect-error request amounts are numbers
export const priceInAsString: PriceIn = { amount: "10.50", currency_code: "eur" };

// Identity: tg_id is an integer claim, wallets carry chain and address; an id_token always has sub.
type UserInfo = IdentityComponents["schemas"]["UserInfo"];
// @ts-expect-error tg_id is a number
export const tgIdAsString: UserInfo["tg_id"] = "482915637";
type Claims = IdentityComponents["schemas"]["IdTokenClaims"];
// @ts-expect-error sub is required in id_token claims
export const claimsWithoutSub: Claims = { iss: "http://127.0.0.1:4020", aud: "demo-app", exp: 1, iat: 1 };
