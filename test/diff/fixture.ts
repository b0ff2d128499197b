// The differ's hand-written pairs of spec versions (test/diff/fixtures/<area>/old.yaml and new.yaml), loaded.
import { join } from "node:path";
import { loadSpecFile } from "../../lib/diff/index.js";

export const fixturesDir = join(import.meta.dirname, "fixtures");

export const fixture = (area: string, version: "old" | "new") =>
  loadSpecFile(join(fixturesDir, area, `${version}.yaml`));
