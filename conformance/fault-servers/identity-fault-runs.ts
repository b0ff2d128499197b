// How the identity fault cases (identity-faults.ts, identity-logout-faults.ts, faults.ts) start the fault provider
// and the smallest run that reaches a check.
import { type IdentityFault, type IdentityVariant, startIdentityServer } from "./identity.js";

export const identity = (fault: IdentityFault) => (port?: number) => startIdentityServer({ fault, port });
export const variant = (name: IdentityVariant) => (port?: number) => startIdentityServer({ variant: name, port });
// The flows without code_reuse_30_seconds' 30-second wait: another check's fault is caught without it, and that check
// is proven on its own fault (identity-code-reuse-forgotten) and on the correct providers.
export const FLOWS = ["--operation", "exchangeToken", "--exclude-check", "code_reuse_30_seconds"];
