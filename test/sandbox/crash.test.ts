// Issue #38: the sandbox loses nothing it acknowledged, across kills at random moments (test/sandbox/support/crash.ts).
// 8 kills here, on a new seed each run; the release proofs kill it 24 times (test/release/sandbox-crash.test.ts).
import { describe, it } from "vitest";
import { crashSeed, expectAcknowledgedWritesKept } from "./support/crash.js";

const KILLS = 8;
const seed = crashSeed();

describe("contracts sandbox --data under SIGKILL", () => {
  it(
    `keeps every acknowledged write across ${KILLS} kills at random moments (seed ${seed})`,
    ({ expect }) => expectAcknowledgedWritesKept(KILLS, seed, expect),
    120_000,
  );
});
