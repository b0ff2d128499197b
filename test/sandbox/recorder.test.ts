// The journal's recorder: whatever the handlers do to the state through its view (push, splice, assign, delete,
// defineProperty with a key like "__proto__", change an object after storing it), the changes it takes, replayed on
// a copy of the state as it was, give the state as it is. Random programs of such steps, over many seeds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyChanges, type Change, StateRecorder } from "../../mock/sandbox/recorder.js";

interface Row {
  id: number;
  tags: string[];
  note?: string;
}
interface State {
  rows: Row[];
  byKey: Record<string, { count: number }>;
  next: number;
}

type Step = (view: State, pick: number) => void;

const STEPS: Record<string, Step> = {
  push: (view) => {
    const row: Row = { id: view.next++, tags: [] };
    view.rows.push(row);
    row.tags.push("added after the push"); // changed through the raw object, after it was stored
  },
  spliceOut: (view, pick) => {
    if (view.rows.length > 0) view.rows.splice(pick % view.rows.length, 1);
  },
  unshift: (view) => void view.rows.unshift({ id: view.next++, tags: ["first"] }),
  editFound: (view, pick) => {
    const row = view.rows.find((candidate) => candidate.id % 3 === pick % 3);
    if (row) {
      row.note = `note ${pick}`;
      row.tags.push(String(pick));
    }
  },
  deleteNote: (view, pick) => {
    const row = view.rows[pick % Math.max(1, view.rows.length)];
    if (row) delete row.note;
  },
  ownKey: (view, pick) => {
    const key = ["__proto__", "constructor", `k${pick % 4}`][pick % 3]!;
    const earlier = Object.hasOwn(view.byKey, key) ? view.byKey[key] : undefined;
    Object.defineProperty(view.byKey, key, {
      value: { count: (earlier?.count ?? 0) + 1 },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  },
  editThenDetach: (view) => {
    const row = view.rows[0];
    if (!row) return;
    view.rows.shift();
    row.note = "changed after it left the state"; // must not land on another row
  },
  replaceList: (view) => void (view.rows = view.rows.filter((row) => row.id % 2 === 0)),
};

describe("StateRecorder", () => {
  it("replays to the same state after any sequence of steps, taken at random points", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...Object.keys(STEPS)), fc.nat(50), fc.boolean()), { maxLength: 60 }),
        (program) => {
          const state: State = { rows: [{ id: 1, tags: ["a"] }], byKey: {}, next: 2 };
          const replica = JSON.parse(JSON.stringify(state)) as State;
          const recorder = new StateRecorder(state);
          const view = recorder.view();
          const journal: Change[][] = [];
          for (const [name, pick, takeNow] of program) {
            STEPS[name]!(view, pick);
            if (takeNow) journal.push(JSON.parse(JSON.stringify(recorder.take())) as Change[]);
          }
          journal.push(JSON.parse(JSON.stringify(recorder.take())) as Change[]);
          for (const changes of journal) applyChanges(replica, changes);
          expect(JSON.stringify(replica)).toBe(JSON.stringify(state));
          expect(Object.getPrototypeOf(replica.byKey)).toBe(Object.prototype);
        },
      ),
      { numRuns: 300 },
    );
  });
});
