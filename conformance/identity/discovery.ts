// Discovery and JWKS: they need no client and no sign-in. The discovery document is found as an OpenID Connect client
// finds it, at the issuer's metadata address (the contract's getOpenIdConfiguration path); the rules it is judged by
// are judge/identity-discovery.ts'.
import type { RunContext } from "../context.js";
import { DISCOVERY_CHECKS } from "../judge/identity-check-list.js";
import {
  discoveryAlgorithms,
  discoveryFields,
  discoveryPkceMethods,
  jwksShape,
  jwksUniqueKids,
  noDiscoveryDocument,
  noJwksKeys,
} from "../judge/identity-discovery.js";
import { assumedMessage, type DiscoveryDocument, jsonObject } from "../judge/identity-words.js";
import { verdictOf } from "../judge/verdict.js";
import type { CaseSender } from "../send/sender.js";
import type { Exchange } from "../send/transport.js";
import { s256OnlyAssumption } from "./authorization.js";
import type { IdentityParts } from "./flow.js";
import { identityOperationPath } from "./paths.js";

export interface Discovery {
  document: DiscoveryDocument;
  exchange: Exchange;
}

async function get({ context, send, judge }: IdentityParts, operationId: string, label: string): Promise<Exchange> {
  const model = context.model(operationId);
  const exchange = await send.send(model, { origin: "example", label, path: {}, query: {}, headers: {} });
  judge.exchange(model, exchange, "valid", label);
  return exchange;
}

/** The discovery document for the flow checks when the discovery checks are not selected: judged only on arrival. */
export async function readDiscovery(context: RunContext, send: CaseSender): Promise<DiscoveryDocument> {
  const url = `${context.options.baseUrl.replace(/\/$/, "")}${identityOperationPath("getOpenIdConfiguration")}`;
  const model = context.model("getOpenIdConfiguration");
  const exchange = await send.sendAsIs({ method: "GET", url, headers: {} }, { model, label: "discovery document" });
  return jsonObject(exchange.response?.json) ?? {};
}

export async function checkDiscovery(reader: IdentityParts): Promise<Discovery | undefined> {
  const { context, judge, ledger } = reader;
  const caseLabel = "discovery document";
  const exchange = await get(reader, "getOpenIdConfiguration", caseLabel);
  const add = (check: string, message: string) =>
    ledger.add(verdictOf(check, "getOpenIdConfiguration", message, exchange, caseLabel));
  const document = jsonObject(exchange.response?.json);
  if (!document) {
    for (const check of DISCOVERY_CHECKS) add(check, noDiscoveryDocument(exchange));
    return undefined;
  }
  add("discovery_fields_and_issuer", discoveryFields(document, context.options.baseUrl));
  add("discovery_rs256_and_openid", discoveryAlgorithms(document));
  const pkce = discoveryPkceMethods(document.code_challenge_methods_supported);
  const message = pkce.assumed
    ? assumedMessage(judge, {
        check: "pkce_s256_only",
        operationId: "getOpenIdConfiguration",
        caseLabel,
        problem: pkce.problem,
        assumption: s256OnlyAssumption(context),
      })
    : pkce.problem;
  add("pkce_s256_only", message);
  return { document, exchange };
}

export async function checkJwks(reader: IdentityParts): Promise<unknown[] | undefined> {
  const exchange = await get(reader, "getJwks", "JWKS");
  const add = (check: string, message: string) =>
    reader.ledger.add(verdictOf(check, "getJwks", message, exchange, "JWKS"));
  const keys: unknown = jsonObject(exchange.response?.json)?.keys;
  if (!Array.isArray(keys)) {
    add("jwks_shape", noJwksKeys(exchange));
    return undefined;
  }
  const list: unknown[] = keys;
  add("jwks_shape", jwksShape(list));
  add("jwks_unique_kids", jwksUniqueKids(list));
  return list;
}
