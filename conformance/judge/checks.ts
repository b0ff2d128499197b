// Which checks a run judges: --check and --exclude-check select from the registry (model/check-registry.ts); an
// unknown name is a usage error that names the way to list them.
import { UsageError } from "../../lib/cli.js";
import type { ApiName } from "../../lib/contract/index.js";
import { appliesTo, CHECK_LIST, CHECK_NAMES, type CheckName, isCheckName } from "../model/check-registry.js";

/** The checks that --check and --exclude-check select (all by default); an unknown name is a usage error. */
export function selectChecks(include: string[] = [], exclude: string[] = []): Set<CheckName> {
  const known = (names: string[]): CheckName[] =>
    names.map((name) => {
      if (isCheckName(name)) return name;
      throw new UsageError(`unknown check "${name}"; run \`contracts conform --list-checks\``);
    });
  const checks = new Set(include.length > 0 ? known(include) : CHECK_NAMES);
  for (const name of known(exclude)) checks.delete(name);
  return checks;
}

export const anyApplies = (checks: ReadonlySet<CheckName>, api: ApiName): boolean =>
  CHECK_LIST.some((check) => checks.has(check.name) && appliesTo(check, api));
