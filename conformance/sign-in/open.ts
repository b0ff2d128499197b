// Opens the sign-in driver a run asked for. The browser driver is loaded only for --browser: it imports
// playwright-core, which the CLI does not need otherwise.
import type { PreparedRequest } from "../apis.js";
import type { Exchange } from "../model/exchange.js";
import type { IdentityRunOptions, SignInDriver } from "./driver.js";
import { FormDriver } from "./form.js";
import { ManualDriver } from "./manual.js";

export async function openSignInDriver(
  options: IdentityRunOptions,
  context: {
    /** How the form driver sends its requests (the identity step's sender, as is). */
    send: (request: PreparedRequest) => Promise<Exchange>;
    signIn: Record<string, string>;
    timeoutMs: number;
  },
): Promise<SignInDriver> {
  switch (options.driver) {
    case "browser": {
      const { BrowserDriver } = await import("./browser.js");
      return BrowserDriver.open({
        signIn: context.signIn,
        script: options.signInScript,
        chromiumPath: options.chromiumPath,
        timeoutMs: context.timeoutMs,
      });
    }
    case "manual":
      return new ManualDriver();
    case "form":
      return new FormDriver(context.send, context.signIn);
  }
}
