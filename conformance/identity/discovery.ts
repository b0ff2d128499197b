// Discovery and JWKS: they need no client and no sign-in. The discovery document is found as an OpenID Connect client
// finds it, at the issuer's metadata address (the contract's getOpenIdConfiguration path); the rules it is judged by
// are judge/identity-discovery.ts'.
import { jsonObject } from "./json.js";
import { type DiscoveryDocument } from "../model/identity-facts.js";
import type { DiscoveryScenario, JwksScenario, Trail } from "../model/identity-scenarios.js";
import type { Exchange } from "../model/exchange.js";
import { addToTrail, type IdentityParts, traced, trailOf } from "./flow.js";
import { type IdentityOperationId, identityOperationPath } from "./paths.js";

async function get(
  parts: IdentityParts & Trail,
  operationId: IdentityOperationId,
  role: string,
  label: string,
): Promise<Exchange> {
  const { context, send, judge } = parts;
  const model = context.model(operationId);
  const exchange = await send.send(model, { origin: "example", label, path: {}, query: {}, headers: {} });
  judge.exchange(model, exchange, "valid", label);
  return addToTrail(parts, role, operationId, label, exchange);
}

/** The discovery document for the flows when the discovery checks are not selected: judged only on arrival. */
export async function readDiscovery({ context, send }: IdentityParts): Promise<DiscoveryDocument> {
  const url = `${context.options.baseUrl.replace(/\/$/, "")}${identityOperationPath("getOpenIdConfiguration")}`;
  const model = context.model("getOpenIdConfiguration");
  const exchange = await send.sendAsIs({ method: "GET", url, headers: {} }, { model, label: "discovery document" });
  return jsonObject(exchange.response?.json) ?? {};
}

export async function discovery(parts: IdentityParts): Promise<DiscoveryScenario> {
  const flow = traced(parts);
  const exchange = await get(flow, "getOpenIdConfiguration", "discovery", "discovery document");
  const document = jsonObject(exchange.response?.json);
  return { family: "identity", name: "discovery", ...trailOf(flow), exchange, document };
}

export async function jwks(parts: IdentityParts): Promise<JwksScenario> {
  const flow = traced(parts);
  const exchange = await get(flow, "getJwks", "jwks", "JWKS");
  const keys: unknown = jsonObject(exchange.response?.json)?.keys;
  return { family: "identity", name: "jwks", ...trailOf(flow), exchange, keys: Array.isArray(keys) ? keys : undefined };
}
