// What changed in the sandbox state since the last look, as a list of (path, value) assignments that the journal
// (journal.ts) appends to disk and replays at start-up. The APIs work on a view of the state (a Proxy) that notes
// every property set or deleted; the values are read when the changes are taken, so that an object changed after
// it was stored (but before the answer) is saved as it ended up. The handlers need not know about any of it.

/** One assignment: set the value at the path, or delete the property when the value is missing. */
export type Change = [path: Array<string | number>, value?: unknown];

interface Place {
  parent: object;
  key: string;
}

export class StateRecorder<T extends object> {
  /** Where each object of the state was last seen (its parent and key), to find its path when a change is taken. */
  private readonly places = new WeakMap<object, Place>();
  private readonly views = new WeakMap<object, object>();
  private readonly targets = new WeakMap<object, object>();
  /** Properties touched since the last take, per object, in the order they were first touched. */
  private touched = new Map<object, Set<string>>();

  constructor(private readonly root: T) {}

  /** The state as the APIs should see it: every change through it is recorded. */
  view(): T {
    return this.viewOf(this.root);
  }

  /** Records a change made outside the view (e.g. by a library holding the raw object). */
  touch(target: object, key: string): void {
    const set = this.touched.get(target) ?? new Set<string>();
    set.add(key);
    this.touched.set(target, set);
  }

  /** The changes since the last call, with the values as they are now; objects no longer in the state are skipped. */
  take(): Change[] {
    const changes: Change[] = [];
    for (const [target, keys] of this.touched) {
      const path = this.pathOf(target);
      if (!path) continue;
      for (const key of keys) {
        const at = [...path, Array.isArray(target) && /^\d+$/.test(key) ? Number(key) : key];
        changes.push(Object.hasOwn(target, key) ? [at, (target as Record<string, unknown>)[key]] : [at]);
      }
    }
    this.touched = new Map();
    return changes;
  }

  private viewOf<V extends object>(target: V): V {
    const existing = this.views.get(target);
    if (existing) return existing as V;
    const view = new Proxy(target, {
      get: (object, key, receiver) => {
        const value: unknown = Reflect.get(object, key, receiver);
        if (typeof key !== "string" || value === null || typeof value !== "object" || !Object.hasOwn(object, key))
          return value;
        const raw = this.targets.get(value) ?? value;
        this.places.set(raw, { parent: object, key });
        return this.viewOf(raw);
      },
      set: (object, key, value: unknown) => {
        const raw = this.unwrap(value);
        if (typeof key === "string") this.touch(object, key);
        return Reflect.set(object, key, raw);
      },
      defineProperty: (object, key, descriptor) => {
        if (typeof key === "string") this.touch(object, key);
        const raw = "value" in descriptor ? { ...descriptor, value: this.unwrap(descriptor.value) } : descriptor;
        return Reflect.defineProperty(object, key, raw);
      },
      deleteProperty: (object, key) => {
        if (typeof key === "string") this.touch(object, key);
        return Reflect.deleteProperty(object, key);
      },
    });
    this.views.set(target, view);
    this.targets.set(view, target);
    return view;
  }

  private unwrap(value: unknown): unknown {
    return value !== null && typeof value === "object" ? (this.targets.get(value) ?? value) : value;
  }

  /** The path from the root to `target`, or undefined when it is no longer part of the state. */
  private pathOf(target: object): Array<string | number> | undefined {
    const path: Array<string | number> = [];
    for (let current = target; current !== this.root;) {
      const place = this.places.get(current);
      if (!place) return undefined;
      const { parent } = place;
      let key: string | number = place.key;
      // Array elements move (splice, unshift): look the object up again when it is no longer where it was seen.
      if ((parent as Record<string, unknown>)[key] !== current) {
        if (!Array.isArray(parent)) return undefined;
        const index = parent.indexOf(current);
        if (index < 0) return undefined;
        key = String(index);
        this.places.set(current, { parent, key });
      }
      path.unshift(Array.isArray(parent) ? Number(key) : key);
      current = parent;
    }
    return path;
  }
}

/** Applies changes to a plain state (at start-up, from the journal); keys are own properties, never the prototype. */
export function applyChanges(root: object, changes: Change[]): void {
  for (const [path, ...value] of changes) {
    let target = root as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) {
      const next = Object.hasOwn(target, key) ? target[key] : undefined;
      if (next === null || typeof next !== "object") throw new Error(`no object at ${path.join("/")}`);
      target = next as Record<string | number, unknown>;
    }
    const last = path[path.length - 1]!;
    if (value.length === 0) delete target[last];
    else if (Array.isArray(target)) target[last as number] = value[0];
    else Object.defineProperty(target, last, { value: value[0], enumerable: true, writable: true, configurable: true });
  }
}
