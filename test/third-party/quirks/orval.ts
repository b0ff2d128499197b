// The links quirks in the client orval generates from generated/openapi/links.json. Not compiled with the repository:
// test/third-party/generators.test.ts copies it beside the generated client and runs `tsc --strict` on both; each
// `@ts-expect-error` fails that check as soon as the quirk it guards is lost.
import type {
  Campaign,
  CampaignListResponse,
  CampaignSaved,
  GetAccount200,
  getAccountResponse200,
} from "./orval/links/client";

// A list's `error` is the string "0"; every other success carries the integer 0.
export const listFlag: CampaignListResponse["error"] = "0";
// @ts-expect-error a list's error is never the integer 0
export const listFlagAsInteger: CampaignListResponse["error"] = 0;

// Campaign add and update return the campaign's name under `domain`.
export const savedName: CampaignSaved["domain"] = "Spring sale";
// @ts-expect-error there is no `name` in the add/update response
export const savedNameKey: CampaignSaved["name"] = "Spring sale";

// `rotator` is a URL or false, never true.
export const rotatorUrl: Campaign["rotator"] = "https://go.example.com/r/spring";
export const noRotator: Campaign["rotator"] = false;
// @ts-expect-error rotator is never true
export const rotatorTrue: Campaign["rotator"] = true;

// The success is the status 200 (a `2XX` range made orval write `status: 2XX`, which is no TypeScript).
export const successStatus: getAccountResponse200["status"] = 200;
// The success body may be the error envelope: the envelope's flag narrows it.
export const username = (body: GetAccount200): string => (body.error === 0 ? body.data.username : body.message);
// @ts-expect-error the body may be the error envelope, which has no data
export const uncheckedUsername = (body: GetAccount200): string => body.data.username;
