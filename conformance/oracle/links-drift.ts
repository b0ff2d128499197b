// Where a drifted links deployment's code departs from its published docs (the seed), as the source of a real
// link-management product showed (issue 46). The independent links server (links.ts) behaves so when asked.

/** The departures of a drifted deployment (see `drift`). */
export type DeploymentDrift =
  /** Lists answer `error: 0`, an integer, not the documented string "0". */
  | "list-error-integer"
  /** The overlay list's array is named `overlay`, not `cta`. */
  | "overlay-array-key"
  /** Campaign add and update answer the name under `campaign`, not `domain`. */
  | "campaign-name-key"
  /** `nextpage` is null on the last page. */
  | "nextpage-null-on-last-page"
  /** A free account's `expires` is null. */
  | "free-account-expires-null"
  /** A created domain's `id` is a string. */
  | "domain-id-string";

export const DEPLOYMENT_DRIFT: readonly DeploymentDrift[] = [
  "list-error-integer",
  "overlay-array-key",
  "campaign-name-key",
  "nextpage-null-on-last-page",
  "free-account-expires-null",
  "domain-id-string",
];
