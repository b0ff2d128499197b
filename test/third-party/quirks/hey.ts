// The links quirks in the types @hey-api/openapi-ts generates from generated/openapi/links.json. Not compiled with the
// repository: test/third-party/generators.test.ts copies it beside the generated client and runs `tsc --strict` on
// both; each `@ts-expect-error` fails that check as soon as the quirk it guards is lost.
import type { Campaign, CampaignListResponse, CampaignSaved, GetAccountResponses } from "./hey/links/types.gen";

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

// The success body (keyed 200) may be the error envelope: the envelope's flag narrows it.
type AccountBody = GetAccountResponses[200];
export const username = (body: AccountBody): string => (body.error === 0 ? body.data.username : body.message);
// @ts-expect-error the body may be the error envelope, which has no data
export const uncheckedUsername = (body: AccountBody): string => body.data.username;
