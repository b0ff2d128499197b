// Issue #38: the sandbox loses nothing it acknowledged, across 24 kills at random moments, as
// test/sandbox/support/crash.ts does it (npm test kills it 8 times). Like everything under test/release/, it runs where
// releases are proven: in CI (CI=true) and with `npm run test:release`.
import { describe, it } from "vitest";
import { crashSeed, expectAcknowledgedWritesKept } from "../sandbox/support/crash.js";

const KILLS = 24;
const seed = crashSeed();

describe("contracts sandbox --data under SIGKILL", () => {
  it(
    `keeps every acknowledged write across ${KILLS} kills at random moments (seed ${seed})`,
    ({ expect }) => expectAcknowledgedWritesKept(KILLS, seed, expect),
    240_000,
  );
});
