// Discovery and JWKS checks: they need no client and no sign-in. The discovery document is found as an OpenID
// Connect client finds it, at the issuer's metadata address (the contract's getOpenIdConfiguration path).
import type { Session } from "../session.js";
import type { Exchange } from "../transport.js";
import { type DiscoveryDocument, jsonObject, shown } from "./flow.js";
import { type IdentityOperationId, identityOperationPath } from "./paths.js";

/** The discovery members naming the provider's endpoints, and the operation each must point at. */
const ENDPOINT_OPERATIONS: Record<string, IdentityOperationId> = {
  authorization_endpoint: "authorize",
  token_endpoint: "exchangeToken",
  userinfo_endpoint: "getUserInfo",
  jwks_uri: "getJwks",
  end_session_endpoint: "logout",
};

const REQUIRED_DISCOVERY_FIELDS = [
  "issuer",
  "authorization_endpoint",
  "token_endpoint",
  "jwks_uri",
  "response_types_supported",
  "subject_types_supported",
  "id_token_signing_alg_values_supported",
];

export interface Discovery {
  document: DiscoveryDocument;
  exchange: Exchange;
}

async function get(session: Session, operationId: string, label: string): Promise<Exchange> {
  const model = session.model(operationId);
  const exchange = await session.send(model, { origin: "example", label, path: {}, query: {}, headers: {} });
  session.check(model, exchange, "valid", label);
  return exchange;
}

/** The discovery document without checking it, for the flow checks when the discovery checks are not selected. */
export async function readDiscovery(session: Session): Promise<DiscoveryDocument> {
  const url = `${session.options.baseUrl.replace(/\/$/, "")}${identityOperationPath("getOpenIdConfiguration")}`;
  const exchange = await session.transport.send({ method: "GET", url, headers: {} });
  return jsonObject(exchange.response?.json) ?? {};
}

const lacks = (list: unknown, value: string) => !Array.isArray(list) || !list.includes(value);

function fieldProblems(session: Session, document: DiscoveryDocument): string[] {
  const problems: string[] = [];
  const missing = REQUIRED_DISCOVERY_FIELDS.filter((field) => document[field] === undefined);
  if (missing.length) problems.push(`missing ${missing.join(", ")}`);
  const issuer = session.options.baseUrl.replace(/\/$/, "");
  if (typeof document.issuer === "string" && document.issuer.replace(/\/$/, "") !== issuer)
    problems.push(`issuer is ${document.issuer}, not the base address ${issuer}`);
  for (const [field, operationId] of Object.entries(ENDPOINT_OPERATIONS)) {
    const expected = `${issuer}${identityOperationPath(operationId)}`;
    if (document[field] !== undefined && document[field] !== expected)
      problems.push(`${field} is ${shown(document[field])}, the contract's is ${expected}`);
  }
  if (Array.isArray(document.response_types_supported) && !document.response_types_supported.includes("code"))
    problems.push("response_types_supported lacks code");
  return problems;
}

function pkceProblem(methods: unknown): string {
  if (!Array.isArray(methods))
    return "code_challenge_methods_supported is not advertised (RFC 8414 §2), so a client cannot tell that S256 is supported";
  return methods.length === 1 && methods[0] === "S256"
    ? ""
    : `code_challenge_methods_supported is ${JSON.stringify(methods)}, not ["S256"] (plain must not be offered, RFC 9700 §2.1.1)`;
}

export async function checkDiscovery(session: Session): Promise<Discovery | undefined> {
  const exchange = await get(session, "getOpenIdConfiguration", "discovery document");
  const document = jsonObject(exchange.response?.json);
  if (!document) {
    for (const check of ["discovery_fields_and_issuer", "discovery_rs256_and_openid", "pkce_s256_only"]) {
      session.record(
        check,
        "getOpenIdConfiguration",
        `no JSON discovery document (status ${exchange.response?.status ?? exchange.error})`,
        exchange,
        "discovery document",
      );
    }
    return undefined;
  }
  session.record(
    "discovery_fields_and_issuer",
    "getOpenIdConfiguration",
    fieldProblems(session, document).join("; "),
    exchange,
    "discovery document",
  );

  const algorithms: string[] = [];
  if (lacks(document.id_token_signing_alg_values_supported, "RS256"))
    algorithms.push(
      `id_token_signing_alg_values_supported (${JSON.stringify(document.id_token_signing_alg_values_supported)}) lacks RS256`,
    );
  if (lacks(document.scopes_supported, "openid"))
    algorithms.push(`scopes_supported (${JSON.stringify(document.scopes_supported)}) lacks openid`);
  session.record(
    "discovery_rs256_and_openid",
    "getOpenIdConfiguration",
    algorithms.join("; "),
    exchange,
    "discovery document",
  );
  session.record(
    "pkce_s256_only",
    "getOpenIdConfiguration",
    pkceProblem(document.code_challenge_methods_supported),
    exchange,
    "discovery document",
  );
  return { document, exchange };
}

const KEY_MEMBERS: Record<string, string[]> = { RSA: ["n", "e"], EC: ["crv", "x", "y"], OKP: ["crv", "x"] };

function keyProblems(keys: unknown[]): string[] {
  const problems: string[] = [];
  keys.forEach((value, index) => {
    const key = jsonObject(value);
    const where = `key ${index}${key?.kid ? ` (kid ${shown(key.kid)})` : ""}`;
    if (!key) return problems.push(`${where} is not an object`);
    if (typeof key.kty !== "string") return problems.push(`${where} has no kty`);
    const absent = (KEY_MEMBERS[key.kty] ?? []).filter((m) => typeof key[m] !== "string");
    if (absent.length) problems.push(`${where} (${key.kty}) lacks ${absent.join(", ")}`);
    if (key.d !== undefined || key.p !== undefined) problems.push(`${where} publishes private key members`);
    return undefined;
  });
  if (
    !keys.some((value) => {
      const key = jsonObject(value);
      return key && (key.use === undefined || key.use === "sig");
    })
  )
    problems.push("no key may be used for signatures");
  return problems;
}

export async function checkJwks(session: Session): Promise<unknown[] | undefined> {
  const exchange = await get(session, "getJwks", "JWKS");
  const keys: unknown = jsonObject(exchange.response?.json)?.keys;
  if (!Array.isArray(keys)) {
    session.record(
      "jwks_shape",
      "getJwks",
      `no keys array in the JWKS (status ${exchange.response?.status ?? exchange.error})`,
      exchange,
      "JWKS",
    );
    return undefined;
  }
  const list: unknown[] = keys;
  session.record("jwks_shape", "getJwks", keyProblems(list).join("; "), exchange, "JWKS");
  const kids = list.map((key) => jsonObject(key)?.kid).filter((kid): kid is string => typeof kid === "string");
  const repeated = [...new Set(kids.filter((kid, index) => kids.indexOf(kid) !== index))];
  const unnamed = list.length > 1 && kids.length < list.length ? "several keys and not every one has a kid" : "";
  session.record(
    "jwks_unique_kids",
    "getJwks",
    [repeated.length ? `kid ${repeated.join(", ")} is used by more than one key` : "", unnamed]
      .filter(Boolean)
      .join("; "),
    exchange,
    "JWKS",
  );
  return list;
}
