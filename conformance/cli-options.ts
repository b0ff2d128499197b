// What the command line says of credentials and the identity sign-in, for `contracts conform` and `contracts proxy`:
// each from its flag, else its environment variable (CREDENTIAL_ENV).
import { existsSync } from "node:fs";
import { UsageError } from "../lib/cli.js";
import { type Credentials, CREDENTIAL_ENV } from "./apis.js";
import type { IdentityRunOptions } from "./sign-in/driver.js";

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
