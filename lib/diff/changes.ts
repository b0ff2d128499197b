// What `contracts diff` reports: one Change per difference, classified from the point of view of the API's user.

/**
 * Who produces the data, seen from the API's user. `sent`: the user writes it and the API reads it (the request of
 * an operation, the reply to a webhook). `received`: the API writes it and the user reads it (the response of an
 * operation, the event of a webhook).
 */
export type Direction = "sent" | "received";

export interface Change {
  /** Stable rule id, e.g. `required-property-added` (docs/guide/versioning.md lists them all). */
  rule: string;
  breaking: boolean;
  /** Absent for changes that are not about a message (operations, security, servers). */
  direction?: Direction;
  /**
   * Every operation the change affects: `POST /api/orders`, `webhook issuance (POST)`. Empty for document-wide ones.
   */
  operations: string[];
  /** Where inside the first affected operation: `request body application/json .variants[].title`. */
  where: string;
  message: string;
  /** JSON pointer of the changed node in the new document (in the old one for a removal). */
  pointer: string;
}

export interface DiffResult {
  before: { title: string; version: string };
  after: { title: string; version: string };
  changes: Change[];
  breaking: number;
}

/** How a change of the set of accepted values affects the user, depending on who writes the data. */
export interface Extent {
  /** The new document accepts something the old one did not. */
  widened: boolean;
  /** The old document accepted something the new one does not. */
  narrowed: boolean;
}

/**
 * A writer breaks when what it may write is narrowed; a reader breaks when what it may read is widened.
 * `tolerantReader` keeps widening safe for readers where readers are expected to ignore what they do not know
 * (new properties of an object).
 */
export function isBreaking(direction: Direction, extent: Extent, tolerantReader = false): boolean {
  return direction === "sent" ? extent.narrowed : extent.widened && !tolerantReader;
}

/** `widened`, `narrowed` or `changed` (both), for rule ids such as `enum-widened`. */
export function extentName(extent: Extent): string {
  return extent.widened && extent.narrowed ? "changed" : extent.widened ? "widened" : "narrowed";
}

/** Collects changes, merging the same change of a shared component met through several operations. */
export class ChangeCollector {
  private readonly byKey = new Map<string, Change>();

  add(change: Omit<Change, "operations">, operation?: string): void {
    const key = [change.rule, change.pointer, change.direction, change.breaking, change.message].join("\0");
    const known = this.byKey.get(key);
    if (!known) this.byKey.set(key, { ...change, operations: operation ? [operation] : [] });
    else if (operation && !known.operations.includes(operation)) known.operations.push(operation);
  }

  /** Breaking changes first, each group in the order found. */
  changes(): Change[] {
    const all = [...this.byKey.values()];
    return [...all.filter((c) => c.breaking), ...all.filter((c) => !c.breaking)];
  }
}
