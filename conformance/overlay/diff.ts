// `contracts overlay diff <file> [<api>]`: what an overlay changes in the reference, for a reader of the docs: the
// operations whose requests or answers change, then every changed place of the contract (a JSON Pointer into the
// bundle, as the reference pages and `x-schema-location` name them) with its value before and after. Both documents
// are only read: the canonical contract never changes. The docs site shows the same changes as a page of the
// reference (scripts/docs/overlay-page.ts).
import { isDeepStrictEqual } from "node:util";
import { joinPointer, loadBundle } from "../../lib/contract/index.js";
import {
  changedOperations,
  type LoadedOverlay,
  type OperationChange,
  operationChangeText,
} from "../../lib/contract/overlay.js";

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A place where two documents differ: a JSON Pointer, its value before and after (absent when added or removed). */
export interface DocumentChange {
  kind: "added" | "removed" | "changed";
  pointer: string;
  before?: unknown;
  after?: unknown;
}

/**
 * The places where `after` differs from `before`. Objects are walked key by key; anything else (an array: `required`,
 * `enum`, `anyOf`) is compared and shown whole, since its items have no names.
 */
export function documentChanges(before: unknown, after: unknown, pointer = ""): DocumentChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key): DocumentChange[] => {
      const place = joinPointer(pointer, key);
      if (!Object.hasOwn(after, key)) return [{ kind: "removed", pointer: place, before: before[key] }];
      if (!Object.hasOwn(before, key)) return [{ kind: "added", pointer: place, after: after[key] }];
      return documentChanges(before[key], after[key], place);
    });
  }
  return isDeepStrictEqual(before, after) ? [] : [{ kind: "changed", pointer, before, after }];
}

/** What an overlay changes in its contract: the operations and every place. */
export function overlayChanges({ api, document }: LoadedOverlay): {
  operations: OperationChange[];
  places: DocumentChange[];
} {
  return { operations: changedOperations(api, document), places: documentChanges(loadBundle(api), document) };
}

/** A change as one line: `+` added, `-` removed, `~` changed. */
function changeLine({ kind, pointer, before, after }: DocumentChange): string {
  if (kind === "added") return `+ ${pointer}: ${JSON.stringify(after)}`;
  if (kind === "removed") return `- ${pointer}: ${JSON.stringify(before)}`;
  return `~ ${pointer}: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`;
}

/** The text `contracts overlay diff` prints. */
export function overlayDiff(loaded: LoadedOverlay): string {
  const { file, api, overlay } = loaded;
  const { operations, places } = overlayChanges(loaded);
  const lines = [
    `${file} (${overlay.info.title}, ${overlay.info.version}): ${overlay.actions.length} action(s) on the ${api} contract`,
    operations.length
      ? `It changes ${operations.length} operation(s): ${operations.map(operationChangeText).join(", ")}`
      : "It changes no operation (what they accept and answer stays the reference's)",
    "",
    ...places.map(changeLine),
  ];
  return `${lines.join("\n")}\n`;
}
