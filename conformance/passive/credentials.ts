// Which credential a recorded request carries, and whether the judge may expect the provider to accept it. A
// recording cannot tell a wrong credential (a mistyped key, an expired one, a revoked token) from a right one by
// looking at it, and a deployment that refuses a wrong one keeps the seeds. So a request the contract allows is
// expected to be accepted only when its credential is known good: one the run was configured with (--token,
// --api-key, --shop-id, ...), or, when none was configured, one the provider accepted earlier in the recording.
// Any other is judged by the shape of its response only ("any").
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import { CREDENTIAL_ENV, type Credentials, headerOf, type PreparedRequest } from "../apis.js";
import type { OperationModel } from "../model/cases.js";
import { isSuccess } from "../contract/words.js";
import type { Exchange } from "../model/exchange.js";

interface SecurityScheme {
  type?: string;
  in?: string;
  name?: string;
}

/**
 * The configured credentials that identify who sends a request (not the secrets that sign it). identity has none:
 * its tokens are issued in the traffic itself, so they are trusted once the provider accepted them.
 */
const CONFIGURED: Record<ApiName, Array<keyof Credentials>> = {
  identity: [],
  links: ["token"],
  catalog: ["apiKey", "readApiKey"],
  pay: ["shopId"],
};

function bearerOf(request: PreparedRequest): string | undefined {
  const authorization = headerOf(request, "authorization")?.trim() ?? "";
  const bearer = /^bearer\s+(\S+)$/i.exec(authorization)?.[1];
  return bearer ?? new URLSearchParams(request.body ?? "").get("access_token") ?? undefined;
}

function schemeValue(request: PreparedRequest, scheme: SecurityScheme): string | undefined {
  if (scheme.type === "apiKey" && scheme.name) {
    if (scheme.in === "query") return new URL(request.url).searchParams.get(scheme.name) ?? undefined;
    if (scheme.in === "cookie")
      return (headerOf(request, "cookie") ?? "")
        .split(";")
        .map((c) => c.trim())
        .find((c) => c.startsWith(`${scheme.name}=`))
        ?.slice(scheme.name.length + 1);
    return headerOf(request, scheme.name)?.trim() || undefined;
  }
  return bearerOf(request);
}

/**
 * The value that identifies the credential of a request to a secured operation, or undefined (none, or an operation
 * without security). pay signs each body, so its signature changes with every request: the shop id in the signed
 * body names the credential instead.
 */
export function credentialOf(api: ApiName, model: OperationModel, request: PreparedRequest): string | undefined {
  const document = loadContract(api).document;
  const requirements = (model.op.operation.security ?? document.security ?? []) as Array<Record<string, unknown>>;
  if (requirements.length === 0) return undefined;
  if (api === "pay") {
    try {
      const shopId = (JSON.parse(request.body ?? "") as { shop_id?: unknown }).shop_id;
      return typeof shopId === "string" || typeof shopId === "number" ? String(shopId) : undefined;
    } catch {
      return undefined;
    }
  }
  const schemes = (document.components?.securitySchemes ?? {}) as Record<string, SecurityScheme>;
  for (const requirement of requirements)
    for (const name of Object.keys(requirement)) {
      const value = schemes[name] && schemeValue(request, schemes[name]);
      if (value) return value;
    }
  return undefined;
}

/** Which credentials the judge trusts: the configured ones, else those the provider accepted so far. */
export class CredentialTrust {
  private readonly configured: ReadonlySet<string>;
  private readonly accepted = new Set<string>();
  /** Requests whose credential was not trusted, so that the report can say why none was judged "valid". */
  untrusted = 0;

  constructor(
    private readonly api: ApiName,
    credentials: Credentials,
  ) {
    // A report judged again (--from-json) names the configured credential of the run that recorded it by its
    // placeholder (`$LINKS_TOKEN`).
    const keys = CONFIGURED[api].filter((key) => typeof credentials[key] === "string" && credentials[key] !== "");
    this.configured = new Set(keys.flatMap((key) => [credentials[key] as string, `$${CREDENTIAL_ENV[key]}`]));
  }

  /** Whether credentials were configured for this API (then only they are trusted). */
  get knowsCredentials(): boolean {
    return this.configured.size > 0;
  }

  /** Learns that the provider accepted the credential of an exchange, when it did (a whole recording, read first). */
  learn(model: OperationModel, exchange: Exchange): void {
    const credential = credentialOf(this.api, model, exchange.request);
    if (credential !== undefined && isSuccess(this.api, exchange.response)) this.accepted.add(credential);
  }

  /**
   * Why a request the contract allows need not be accepted: its credential is not trusted. Undefined when it
   * is (or carries none: lacksCredentials judged that). Learns each credential the provider accepts, in order.
   */
  untrustedReason(model: OperationModel, exchange: Exchange): string | undefined {
    const credential = credentialOf(this.api, model, exchange.request);
    if (credential === undefined) return undefined;
    if (this.knowsCredentials) {
      if (this.configured.has(credential)) return undefined;
      this.untrusted += 1;
      return "a credential other than the configured one";
    }
    this.learn(model, exchange);
    if (this.accepted.has(credential)) return undefined;
    this.untrusted += 1;
    return "a credential the recording never saw accepted";
  }
}
