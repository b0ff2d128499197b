// `contracts mock` started the ways frontend teams start it and stopped the ways terminals and supervisors stop things
// leaves nothing behind (test/mock/support/stops.ts): a sample in which every launcher and every stop appear. The
// cases run concurrently (each on its own ports, in its own process group), so that one case's start-up overlaps
// another's wait. Every other pair is a release proof (test/release/lifecycle.test.ts).
import { describe, expect, it } from "vitest";
import { expectNothingLeftBehind, STOP_CASES, type StopCase } from "./support/stops.js";

const sample = STOP_CASES.filter((c) => c.inSample);

it("the sample has every launcher and every stop", () => {
  expect(sample).toHaveLength(6);
  expect(new Set(sample.map((c) => c.launcher.name)).size).toBe(new Set(STOP_CASES.map((c) => c.launcher.name)).size);
  const stopOf = (c: StopCase) => `${c.stop.signal} to the ${c.stop.target}`;
  expect(new Set(sample.map(stopOf)).size).toBe(new Set(STOP_CASES.map(stopOf)).size);
});

describe.concurrent("contracts mock leaves nothing behind", () => {
  it.for(sample)("$label", (c, { expect }) => expectNothingLeftBehind(c, expect));
});
