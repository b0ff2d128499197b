// The links quirks in the schemas openapi-zod-client generates from generated/openapi/links.json. Not compiled with the
// repository: test/third-party/generators.test.ts copies it beside the generated schemas and runs `tsc --strict` on
// both; each `@ts-expect-error` fails that check as soon as the quirk it guards is lost. openapi-zod-client 1.x reads
// no `const` (it keeps the `type` beside it), so the flags are a string and a number here, and `false` a boolean.
import type { z } from "zod";
import { schemas } from "./zod/links";

type Body<K extends keyof typeof schemas> = z.infer<(typeof schemas)[K]>;

// A list's `error` is a string ("0"); every other success carries a number.
export const listFlag: Body<"CampaignListResponse">["error"] = "0";
// @ts-expect-error a list's error is never the integer 0
export const listFlagAsInteger: Body<"CampaignListResponse">["error"] = 0;
export const accountFlag: Body<"AccountResponse">["error"] = 0;

// Campaign add and update return the campaign's name under `domain`.
export const savedName: Body<"CampaignSaved">["domain"] = "Spring sale";
// @ts-expect-error there is no `name` in the add/update response
export const savedNameKey: Body<"CampaignSaved">["name"] = "Spring sale";

// `rotator` is a URL or false (a boolean to this generator), never a number or null.
export const rotatorUrl: Body<"Campaign">["rotator"] = "https://go.example.com/r/spring";
export const noRotator: Body<"Campaign">["rotator"] = false;
// @ts-expect-error rotator is a string or false
export const rotatorNull: Body<"Campaign">["rotator"] = null;

// The success body may be the error envelope: the closed success envelope's `data` narrows it.
type AccountBody = Body<"AccountResponse"> | Body<"ErrorEnvelope">;
export const username = (body: AccountBody): string => ("data" in body ? body.data.username : body.message);
// @ts-expect-error the body may be the error envelope, which has no data
export const uncheckedUsername = (body: AccountBody): string => body.data.username;
