// What the discovery document advertises and the run's requests then saw not delivered: a warning, never a failure
// (not even under --strict), as the OpenID Foundation suite warns. Only what a request of the run actually tested:
// here offline_access, which refresh_token_offline_access asks for (with prompt=consent, OpenID Connect Core §11).
import type { Verdict } from "../model/finding.js";
import { shown } from "./identity-words.js";
import { warningOf } from "./verdict.js";

/** Why this only warns: an advertised scope is one the provider may issue, not one it must grant every client. */
export const ADVERTISED_NOT_PROMISED =
  "Discovery §3 lists what the OP supports, and OpenID Connect Core §11 lets it not grant offline_access; the run only reports the gap.";

/** refresh_token_offline_access skipped while scopes_supported advertises offline_access: a warning. */
export function offlineAccessAdvertised(scopesSupported: unknown, grantedScope: unknown): Verdict[] {
  if (!Array.isArray(scopesSupported) || !scopesSupported.includes("offline_access")) return [];
  const message = `scopes_supported advertises offline_access, but a request for it with prompt=consent was not granted it (the token response's scope is "${shown(grantedScope)}")`;
  const note = { kind: "warning" as const, message, assumption: ADVERTISED_NOT_PROMISED };
  return [warningOf("refresh_token_offline_access", "exchangeToken", note, "authorize with offline_access")];
}
