// What changed in the sandbox state since the last look, as a list of (path, value) assignments that the journal
// (journal.ts) appends to disk and replays at start-up. The APIs work on a view of the state (a Proxy) that notes
// every property set or deleted; the values are read when the changes are taken, so that an object changed after
// it was stored (but before the answer) is saved as it ended up. The handlers need not know about any of it.

/** One assignment: set the value at the path, or delete the property when the value is missing. */
export type Change = [path: Array<string | number>, value?: unknown];

/** List methods that only read the list and call back per item (map's and filter's results are new lists). */
const SEARCHES = new Set([
  "some",
  "every",
  "find",
  "findIndex",
  "findLast",
  "findLastIndex",
  "filter",
  "forEach",
  "map",
]);

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
    // Paths are where things are now, so a parent's change goes first: an element that moved (unshift, splice) is
    // then already where its own changes find it. Every change writes a final value, so the order is otherwise free.
    return changes.sort((a, b) => a[0].length - b[0].length);
  }

  private viewOf<V extends object>(target: V): V {
    const existing = this.views.get(target);
    if (existing) return existing as V;
    const view = new Proxy(target, {
      // Reads are the hot path (a lookup walks a whole list through here): one WeakMap lookup per object read.
      get: (object, key) => {
        if (Array.isArray(object) && typeof key === "string" && SEARCHES.has(key)) return this.search(object, key);
        const value: unknown = (object as Record<string | symbol, unknown>)[key];
        if (value === null || typeof value !== "object") return value;
        return this.views.get(value) ?? this.firstView(object, key, value);
      },
      set: (object, key, value: unknown) => {
        const raw = typeof key === "string" ? this.store(object, key, value) : value;
        return Reflect.set(object, key, raw);
      },
      defineProperty: (object, key, descriptor) => {
        if (typeof key !== "string" || !("value" in descriptor)) return Reflect.defineProperty(object, key, descriptor);
        return Reflect.defineProperty(object, key, { ...descriptor, value: this.store(object, key, descriptor.value) });
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

  /**
   * A list's search or walk run on the list itself, without a trap per index (a lookup in a long list is the hot
   * path of every write). Tests (some, find, filter, ...) see the items themselves, so a test must only read; what
   * they return, and what forEach and map's callbacks get, are views, so changes to them are recorded.
   */
  private search(list: unknown[], method: string) {
    const itemView = (index: number) => {
      const value = list[index];
      return value !== null && typeof value === "object"
        ? (this.views.get(value) ?? this.firstView(list, String(index), value))
        : value;
    };
    const test = (Array.prototype as unknown as Record<string, (...args: unknown[]) => unknown>)[
      method === "find" ? "findIndex" : method === "findLast" ? "findLastIndex" : method
    ]!;
    return (callback: (value: unknown, index: number, list: unknown[]) => unknown, thisArg?: unknown) => {
      const view = this.viewOf(list);
      if (method === "forEach" || method === "map")
        return test.call(list, (_: unknown, index: number) => callback.call(thisArg, itemView(index), index, view));
      const passes = (value: unknown, index: number) => callback.call(thisArg, value, index, view);
      if (method === "filter") {
        const kept: unknown[] = [];
        list.forEach((value, index) => {
          if (passes(value, index)) kept.push(itemView(index));
        });
        return kept;
      }
      const result = test.call(list, passes);
      if (method === "find" || method === "findLast")
        return (result as number) < 0 ? undefined : itemView(result as number);
      return result;
    };
  }

  /** The view of an object read for the first time (or a view itself, stored by mistake inside a raw value). */
  private firstView(parent: object, key: string | symbol, value: object): object {
    if (this.targets.has(value)) return value;
    if (typeof key === "string") this.places.set(value, { parent, key });
    return this.viewOf(value);
  }

  /**
   * Notes an assignment and returns the raw value to store: the property is touched, views inside the value (a new
   * list filtered from the state holds views of its rows) are replaced by their objects, so that the state never
   * holds a view, and every object in the value is found where it now is.
   */
  private store(parent: object, key: string, value: unknown): unknown {
    this.touch(parent, key);
    const raw = this.unwrap(value);
    if (raw === null || typeof raw !== "object") return raw;
    this.places.set(raw, { parent, key });
    const seen = new Set<object>([raw]);
    const pending: object[] = [raw];
    for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
      for (const [childKey, child] of Object.entries(current)) {
        if (child === null || typeof child !== "object") continue;
        const rawChild = this.unwrap(child) as object;
        if (seen.has(rawChild)) continue;
        seen.add(rawChild);
        if (rawChild !== child) setOwn(current, childKey, rawChild);
        this.places.set(rawChild, { parent: current, key: childKey });
        pending.push(rawChild);
      }
    }
    return raw;
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

function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
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
    else setOwn(target, last, value[0]);
  }
}
