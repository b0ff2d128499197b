// The "Deployment differences" page (docs/reference/<api>/deployment.md), written when the site is generated with
// DOCS_OVERLAY=<file>: what a deployment's overlay changes in the reference, from the same diff as
// `contracts overlay diff` (conformance/overlay/diff.ts). The other reference pages stay the contract's: the overlay
// describes a deployment, it never changes the canonical contract.
import { basename } from "node:path";
import { overlayChanges, type DocumentChange } from "../../conformance/overlay/diff.js";
import { loadBundle } from "../../lib/contract/index.js";
import type { LoadedOverlay } from "../../lib/contract/overlay.js";
import { locate } from "./annotations.js";
import { operationHref } from "./document.js";
import { code, jsonBlock, prose, table } from "./markdown.js";
import { frontmatter, squash } from "./reference-parts.js";

/**
 * The page's name in docs/reference/<api>/ and its title in the sidebar: not "overlay", which links readers know as
 * the API's own resource (its Overlays page sits beside it).
 */
export const OVERLAY_PAGE = { page: "deployment", title: "Deployment differences" };

const KIND_WORDS: Record<DocumentChange["kind"], string> = { added: "Added", removed: "Removed", changed: "Changed" };

/** One changed place: where it is in the reference (linked), its pointer, and its value before and after. */
function placeSection(loaded: LoadedOverlay, canonical: LoadedOverlay["document"], change: DocumentChange): string {
  // An added place exists only in the overlaid contract; its operation or schema still has a section in the reference.
  const { where, href } = locate(change.kind === "added" ? loaded.document : canonical, change.pointer);
  const value = (label: string, present: boolean, content: unknown) =>
    present ? [`${label}:`, "", jsonBlock(content), ""] : [`${label}: _absent_`, ""];
  return squash([
    `**${KIND_WORDS[change.kind]}** in [${where}](${href}): ${code(change.pointer)}`,
    "",
    ...value("Before", change.kind !== "added", change.before),
    ...value("After", change.kind !== "removed", change.after),
  ]);
}

/** The markdown of the page. */
export function overlayPage(loaded: LoadedOverlay): string {
  const canonical = loadBundle(loaded.api);
  const { operations, places } = overlayChanges(loaded);
  const title = `${canonical.info.title}: deployment differences`;
  const { info, actions } = loaded.overlay;
  const operationRows = operations.map(({ operationId, change }) => [
    change === "added" ? code(operationId) : `[${code(operationId)}](${operationHref(canonical, operationId)})`,
    change,
  ]);
  return squash([
    ...frontmatter(title, ["outline: [2, 2]"]),
    ":::: v-pre",
    `# ${prose(title)}`,
    "",
    `This site was generated with the overlay ${code(basename(loaded.file))} (${prose(info.title)}, ` +
      `${prose(info.version)}): ${actions.length} action(s) that describe how a deployment departs from the contract. ` +
      "The other pages of this reference show the contract as it is; this page shows what the overlay changes in it, " +
      "as `contracts overlay diff` does (conformance guide: [With an overlay](/guide/conformance#with-an-overlay)).",
    "",
    "## Operations it changes",
    "",
    operationRows.length > 0
      ? table(["Operation", "Change"], operationRows)
      : "_None: what the operations accept and answer stays the reference's._",
    "",
    `## Changed places (${places.length})`,
    "",
    "Each place of the contract the overlay changes, as a JSON Pointer into the bundle, with its value before and after.",
    "",
    ...places.map((change) => placeSection(loaded, canonical, change)),
    "::::",
    "",
  ]);
}
