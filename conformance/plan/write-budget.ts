// --max-writes: how many resources the run may create that it cannot delete afterwards (pay's orders, catalog's
// products), in the whole run. The valid-data items spend it; one creation of each kind is kept for its stateful
// sequence, which runs after them in the first round and would otherwise find none left.
import type { ResourceKind } from "../apis.js";

/** Valid creations the run may make of resources it cannot delete, when --max-writes does not say. */
export const DEFAULT_MAX_WRITES = 5;

export class WriteBudget {
  /** Of --max-writes, the creations the valid-data items may still make: the rest are made, or kept for sequences. */
  left: number;
  /** Kinds whose stateful sequence has one creation kept for it (keepForSequences). */
  private readonly kept = new Set<string>();

  constructor(readonly max: number = DEFAULT_MAX_WRITES) {
    this.left = max;
  }

  /**
   * Keeps one creation, while any are left, for the sequence of each kind the run cannot delete. Pay's nonce_replay
   * sends the order sequence's creation again, which a faulty gateway turns into one more order: one more is kept for
   * it when `replayed`.
   */
  keepForSequences(kinds: ResourceKind[], replayed: boolean): void {
    for (const kind of kinds) {
      for (const use of replayed ? [kind.name, `${kind.name} replay`] : [kind.name]) {
        if (!kind.undeletable || this.left === 0) continue;
        this.left -= 1;
        this.kept.add(use);
      }
    }
  }

  /** Whether a stateful sequence may create a resource of this kind: always when the run can delete it. */
  sequenceMayCreate(kind: ResourceKind): boolean {
    return !kind.undeletable || this.kept.has(kind.name);
  }

  /** Whether the sequence's creation of this kind may be replayed (the replay may create one). */
  creationMayBeReplayed(kind: ResourceKind): boolean {
    return !kind.undeletable || this.kept.has(`${kind.name} replay`);
  }
}
