// The whole sandbox state: one plain JSON-serialisable object per API, seeded from the contracts' examples and
// the config, and what `--data <file>` saves.
import { type CatalogState, seedCatalog } from "./catalog.js";
import type { SandboxConfig } from "./config.js";
import { type IdentityState, seedIdentity } from "./identity.js";
import { type LinksState, seedLinks } from "./links.js";
import { type PayState, seedPay } from "./pay.js";

/** Bumped when the shape changes, so that an old data file is refused with a clear message instead of misread. */
export const STATE_VERSION = 1;

export interface SandboxState {
  version: typeof STATE_VERSION;
  /** Which journal (<file>.journal) continues this snapshot; see persistence.ts. Missing in older files. */
  generation?: number;
  identity: IdentityState;
  links: LinksState;
  catalog: CatalogState;
  pay: PayState;
}

export async function seedState(config: SandboxConfig): Promise<SandboxState> {
  return {
    version: STATE_VERSION,
    identity: await seedIdentity(),
    links: seedLinks(config.links),
    catalog: seedCatalog(config.catalog),
    pay: seedPay(config.pay),
  };
}
