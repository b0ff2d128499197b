// What the command line of `contracts conform` says: its options, and the credentials and identity sign-in (also for
// `contracts proxy`), each from its flag, else its environment variable (CREDENTIAL_ENV).
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { UsageError } from "../lib/cli.js";
import { type Credentials, CREDENTIAL_ENV } from "./apis.js";
import type { IdentityRunOptions } from "./sign-in/driver.js";

/** The options of `contracts conform <api>` (CONFORM_USAGE explains them). */
const CONFORM_OPTIONS = {
  "base-url": { type: "string" },
  har: { type: "string" },
  "from-json": { type: "string" },
  token: { type: "string" },
  "api-key": { type: "string" },
  "read-only-api-key": { type: "string" },
  "shop-id": { type: "string" },
  secret: { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  "second-client-id": { type: "string" },
  "second-client-secret": { type: "string" },
  "redirect-uri": { type: "string" },
  "access-token": { type: "string" },
  "sign-in": { type: "string", multiple: true },
  browser: { type: "boolean", default: false },
  manual: { type: "boolean", default: false },
  "sign-in-script": { type: "string" },
  "post-logout-redirect-uri": { type: "string" },
  "max-examples": { type: "string" },
  "max-requests": { type: "string" },
  "max-duration": { type: "string" },
  seed: { type: "string" },
  operation: { type: "string", multiple: true },
  check: { type: "string", multiple: true },
  "exclude-check": { type: "string", multiple: true },
  "allow-writes": { type: "boolean", default: false },
  "max-writes": { type: "string" },
  nonce: { type: "string" },
  "max-response-time": { type: "string" },
  shard: { type: "string" },
  concurrency: { type: "string" },
  "rate-limit": { type: "string" },
  timeout: { type: "string" },
  "max-shrinks": { type: "string" },
  junit: { type: "string" },
  json: { type: "string" },
  html: { type: "string" },
  "list-checks": { type: "boolean", default: false },
  strict: { type: "boolean", default: false },
  baseline: { type: "string" },
  overlay: { type: "string" },
  "update-baseline": { type: "boolean", default: false },
  verbose: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

export type ConformValues = ReturnType<typeof parseConformArgs>["values"];

export function parseConformArgs(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, strict: true, options: CONFORM_OPTIONS });
}

export function credentialsFrom(values: Record<string, unknown>, env: NodeJS.ProcessEnv): Credentials {
  const pick = (flag: string, key: keyof Credentials) =>
    (values[flag] as string | undefined) ?? env[CREDENTIAL_ENV[key]] ?? undefined;
  const credentials: Credentials = {};
  const assign = (flag: string, key: Exclude<keyof Credentials, "signIn">) => {
    const value = pick(flag, key);
    if (value) credentials[key] = value;
  };
  assign("token", "token");
  assign("api-key", "apiKey");
  assign("read-only-api-key", "readApiKey");
  assign("shop-id", "shopId");
  assign("secret", "secret");
  assign("client-id", "clientId");
  assign("client-secret", "clientSecret");
  assign("second-client-id", "secondClientId");
  assign("second-client-secret", "secondClientSecret");
  assign("redirect-uri", "redirectUri");
  assign("access-token", "accessToken");
  const signIn = (values["sign-in"] as string[] | undefined)?.length
    ? (values["sign-in"] as string[]).join("&")
    : env[CREDENTIAL_ENV.signIn];
  if (signIn) credentials.signIn = Object.fromEntries(new URLSearchParams(signIn));
  return credentials;
}

/** How the identity flow checks sign in (conformance/sign-in/). */
export function identityOptionsFrom(values: Record<string, unknown>, env: NodeJS.ProcessEnv): IdentityRunOptions {
  if (values.browser && values.manual) throw new UsageError("choose one of --browser and --manual");
  const script = values["sign-in-script"] as string | undefined;
  if (script && !values.browser) throw new UsageError("--sign-in-script drives a page in the browser: add --browser");
  if (script && !existsSync(script)) throw new UsageError(`--sign-in-script ${script} does not exist`);
  const postLogoutRedirectUri =
    (values["post-logout-redirect-uri"] as string | undefined) ?? env.IDENTITY_POST_LOGOUT_REDIRECT_URI;
  if (postLogoutRedirectUri && !URL.canParse(postLogoutRedirectUri))
    throw new UsageError(`--post-logout-redirect-uri must be a URL, got "${postLogoutRedirectUri}"`);
  return {
    driver: values.browser ? "browser" : values.manual ? "manual" : "form",
    ...(script ? { signInScript: script } : {}),
    ...(postLogoutRedirectUri ? { postLogoutRedirectUri } : {}),
    ...(env.CONFORM_CHROMIUM ? { chromiumPath: env.CONFORM_CHROMIUM } : {}),
  };
}
