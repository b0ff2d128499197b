// `contracts mock` started and stopped every other way npm test does not try (test/mock/lifecycle.test.ts runs a
// sample), as test/mock/support/stops.ts does it. Like everything under test/release/, it runs where releases are
// proven: in CI (CI=true) and with `npm run test:release`.
import { describe, it } from "vitest";
import { expectNothingLeftBehind, STOP_CASES } from "../mock/support/stops.js";

describe.concurrent("contracts mock leaves nothing behind", () => {
  it.for(STOP_CASES.filter((c) => !c.inSample))("$label", (c, { expect }) => expectNothingLeftBehind(c, expect));
});
