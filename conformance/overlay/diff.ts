// `contracts overlay diff <file> [<api>]`: what an overlay changes in the reference, for a reader of the docs: the
// operations whose requests or answers change, then every changed place of the contract (a JSON Pointer into the
// bundle, as the reference pages and `x-schema-location` name them) with its value before and after. Both documents
// are only read: the canonical contract never changes.
import { isDeepStrictEqual } from "node:util";
import { joinPointer, loadBundle } from "../../lib/contract/index.js";
import { changedOperations, type LoadedOverlay } from "../../lib/contract/overlay.js";

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The places where `after` differs from `before`: `+` added, `-` removed, `~` changed. Objects are walked key by key;
 * anything else (an array: `required`, `enum`, `anyOf`) is compared and shown whole, since its items have no names.
 */
export function documentChanges(before: unknown, after: unknown, pointer = ""): string[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => {
      const place = joinPointer(pointer, key);
      if (!Object.hasOwn(after, key)) return [`- ${place}: ${JSON.stringify(before[key])}`];
      if (!Object.hasOwn(before, key)) return [`+ ${place}: ${JSON.stringify(after[key])}`];
      return documentChanges(before[key], after[key], place);
    });
  }
  return isDeepStrictEqual(before, after)
    ? []
    : [`~ ${pointer}: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`];
}

/** The text `contracts overlay diff` prints. */
export function overlayDiff(loaded: LoadedOverlay): string {
  const { file, api, overlay, document } = loaded;
  const operations = changedOperations(api, document);
  const lines = [
    `${file} (${overlay.info.title}, ${overlay.info.version}): ${overlay.actions.length} action(s) on the ${api} contract`,
    operations.length
      ? `It changes ${operations.length} operation(s): ${operations.join(", ")}`
      : "It changes no operation (what they accept and answer stays the reference's)",
    "",
    ...documentChanges(loadBundle(api), document),
  ];
  return `${lines.join("\n")}\n`;
}
