// Loading a custom sandbox config file (Node-only; the MSW handlers take a config object instead).
import { readFileSync } from "node:fs";
import { checkConfig, defaultConfig, type SandboxConfig, SandboxConfigError } from "./config.js";

/** The default config, or the JSON file at `path` (same shape as `contracts sandbox --print-config`). */
export function loadConfig(path?: string): SandboxConfig {
  if (path === undefined) return defaultConfig();
  let config: SandboxConfig;
  try {
    config = JSON.parse(readFileSync(path, "utf8")) as SandboxConfig;
  } catch (error) {
    throw new SandboxConfigError(`cannot read the sandbox config ${path}: ${(error as Error).message}`);
  }
  checkConfig(config, path);
  return config;
}
