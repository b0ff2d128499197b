// The sessions an identity run opened at the provider, kept so that the run can end each one at its end
// (cleanup.ts), also after Ctrl-C: the sessions of the sign-in driver's browser (each cookie jar or browser context,
// with the latest id_token issued in it), and the sessions a logout request of the plan opened without signing in.
// A provider may keep a session for a logout request that came without a cookie: the stock oidc-provider saves one
// (with its confirmation page's xsrf token, for 14 days) and sets its cookie on the page it answers. The cookies stay
// in memory: a session cookie is as good as the sign-in it stands for.
import type { Arrival } from "../send/sender.js";
import type { DriverSession, SignInDriver } from "../sign-in/driver.js";
import { DISCOVERY_MEMBERS } from "./paths.js";

/** A session opened by a request of the plan: the Set-Cookie headers of its response. */
export interface CookieSession {
  setCookies: string[];
  /** The request that opened it (its label in the run), for the report. */
  openedBy: string;
}

export class OpenedSessions {
  private readonly drivers: SignInDriver[] = [];
  readonly withoutSignIn: CookieSession[] = [];

  /** The identity step's driver: its sessions are ended, and it is closed, at the end of the run. */
  keep(driver: SignInDriver): void {
    this.drivers.push(driver);
  }

  get signInDrivers(): readonly SignInDriver[] {
    return this.drivers;
  }

  /** The session the driver navigates in now, the one a code just redeemed was issued in. */
  private get current(): DriverSession | undefined {
    return this.drivers.at(-1)?.current;
  }

  /** Notes the id_token of a token response as its session's latest, its id_token_hint at logout. */
  noteIdToken(response: Record<string, unknown> | undefined): void {
    const idToken = response?.id_token;
    if (this.current && typeof idToken === "string" && idToken) this.current.idToken = idToken;
  }

  /** Notes the session cookie a logout request of the plan was given (a page the provider answered it with). */
  noteArrival({ model, exchange, requestCase }: Arrival): void {
    const member = DISCOVERY_MEMBERS[model.op.operationId as keyof typeof DISCOVERY_MEMBERS];
    const setCookies = exchange.response?.setCookies ?? [];
    if (member === "end_session_endpoint" && setCookies.length > 0)
      this.withoutSignIn.push({ setCookies, openedBy: requestCase.label });
  }
}
