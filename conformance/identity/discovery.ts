// Discovery and JWKS: they need no client and no sign-in. The discovery document is found as an OpenID Connect client
// finds it, at the issuer's metadata address (the contract's getOpenIdConfiguration path), and read once first for the
// endpoints every identity request is sent to (followDiscovery); the rules it is judged by are
// judge/identity-discovery.ts'.
import { jsonObject } from "./json.js";
import type { DiscoveryScenario, EndpointsScenario, JwksScenario, Trail } from "../model/identity-scenarios.js";
import type { Exchange } from "../model/exchange.js";
import { addToTrail, type IdentityParts, traced, trailOf } from "./flow.js";
import { contractUrl, IdentityEndpoints, type IdentityOperationId } from "./paths.js";
import type { RunContext } from "../context.js";
import type { Sender } from "../send/sender.js";

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

/**
 * Before anything else of an identity run: reads the discovery document once and has the sender send every identity
 * request to the endpoints it names from then on (paths.ts). The scenario says where each went, for the judge.
 */
export async function followDiscovery(context: RunContext, sender: Sender): Promise<EndpointsScenario> {
  const send = sender.forItem(undefined);
  const label = "discovery document, for the endpoints";
  const url = contractUrl(context.options.baseUrl, "getOpenIdConfiguration");
  const exchange = await send.sendAsIs({ method: "GET", url, headers: {} });
  const endpoints = new IdentityEndpoints(context.options.baseUrl, jsonObject(exchange.response?.json));
  sender.follow(endpoints);
  const exchanges = [{ role: "discovery", operationId: "getOpenIdConfiguration", label, exchange }];
  const { locations } = endpoints;
  return { family: "identity", name: "endpoints", exchanges, authorizations: [], exchange, locations };
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
