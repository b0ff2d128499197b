// Contract extensions added for one run in this process: the self-tests prove how the runner reads `x-assumption`,
// `x-provider-refuses` and `x-error-envelope` on small, explicit changes to the loaded bundle, whatever the specs
// carry today. Each patch sets (or, with `value: undefined`, removes) one key of the node at `pointer` as written.
import { type ApiName, loadContract, valueAt } from "../../lib/contract/index.js";
import { forgetLookups } from "../contract/lookup.js";

export interface ContractPatch {
  api: ApiName;
  /** The node, as written in the bundle (a `$ref` node is patched itself, not its target). */
  pointer: string;
  key: string;
  /** `undefined` removes the key. */
  value: unknown;
}

/** Applies the patches to the cached bundles; returns the function that restores them. */
export function patchContract(patches: ContractPatch[]): () => void {
  const undo: Array<() => void> = [];
  for (const patch of patches) {
    const node = valueAt(loadContract(patch.api).document, patch.pointer) as Record<string, unknown> | undefined;
    if (!node || typeof node !== "object") throw new Error(`${patch.api}: nothing to patch at ${patch.pointer}`);
    const had = Object.hasOwn(node, patch.key);
    const before = node[patch.key];
    if (patch.value === undefined) delete node[patch.key];
    else node[patch.key] = patch.value;
    undo.unshift(() => {
      if (had) node[patch.key] = before;
      else delete node[patch.key];
    });
  }
  // Validators compiled from the bundle before (or during) the patch would judge by the other document.
  const forgetCompiled = () => {
    forgetLookups();
    for (const api of new Set(patches.map((patch) => patch.api))) loadContract(api).validators.forget();
  };
  forgetCompiled();
  return () => {
    undo.forEach((restore) => restore());
    forgetCompiled();
  };
}

/** The contract words of the conventions (BRIEF), as the specs will carry them. */
export const ERROR_ENVELOPES: ContractPatch[] = [
  { api: "links", pointer: "", key: "x-error-envelope", value: { property: "error", success: [0, "0"] } },
  { api: "pay", pointer: "", key: "x-error-envelope", value: { property: "type", success: ["success"] } },
];

// The contract itself no longer checks the redirects on read (the seed never says an unset one is a URL), so the
// self-tests put the URL format back as the constraint under judgement, with and without an assumption on it.
export const REDIRECTS_ARE_URLS: ContractPatch[] = ["redirectroot", "redirect404"].map((name) => ({
  api: "links",
  pointer: `/components/schemas/Domain/properties/${name}`,
  key: "format",
  value: "uri",
}));

/** The URL format back, as an assumption: a redirect read back as "" (the links oracle's unset one) is a warning. */
export const EMPTY_REDIRECTS_ASSUMED: ContractPatch[] = [
  ...REDIRECTS_ARE_URLS,
  ...["redirectroot", "redirect404"].map((name): ContractPatch => ({
    api: "links",
    pointer: `/components/schemas/Domain/properties/${name}`,
    key: "x-assumption",
    value: "The seed calls it a URL but never says an unset redirect is not read back empty.",
  })),
];
