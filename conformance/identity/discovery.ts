// Discovery and JWKS checks: they need no client and no sign-in. The discovery document is found as an OpenID
// Connect client finds it, at the issuer's metadata address (the contract's getOpenIdConfiguration path).
import { assumptionBroken } from "../judge/assumptions.js";
import type { Session } from "../send/session.js";
import { s256OnlyAssumption } from "./authorization.js";
import type { Exchange } from "../send/transport.js";
import { type DiscoveryDocument, jsonObject, shown } from "./flow.js";
import { type IdentityOperationId, identityOperationPath } from "./paths.js";
import { verdictOf } from "../judge/verdict.js";

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
  session.judge.exchange(model, exchange, "valid", label);
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
  if (missing.length) problems.push(`missing ${missing.join(", ")} (OpenID Connect Discovery §3)`);
  const issuer = session.options.baseUrl.replace(/\/$/, "");
  if (typeof document.issuer === "string" && document.issuer.replace(/\/$/, "") !== issuer)
    problems.push(
      `issuer is ${document.issuer}, not the base address ${issuer} (the seed; OpenID Connect Discovery §4.3)`,
    );
  for (const [field, operationId] of Object.entries(ENDPOINT_OPERATIONS)) {
    const expected = `${issuer}${identityOperationPath(operationId)}`;
    if (document[field] !== undefined && document[field] !== expected)
      problems.push(`${field} is ${shown(document[field])}, the contract's is ${expected} (the seed's endpoint table)`);
  }
  if (Array.isArray(document.response_types_supported) && !document.response_types_supported.includes("code"))
    problems.push(
      "response_types_supported lacks code (the seed: Authorization Code flow; OpenID Connect Discovery §3)",
    );
  return problems;
}

/**
 * PKCE in the discovery document: advertised (RFC 8414 §2: "If omitted, the authorization server does not support
 * PKCE", while the seed's flow is with PKCE), with S256 (RFC 7636 §4.2: mandatory to implement on the server); any
 * other method beside it breaks only the contract's S256-only assumption (a warning unless --strict).
 */
function pkceProblem(session: Session, methods: unknown): string {
  if (!Array.isArray(methods))
    return "code_challenge_methods_supported is not advertised, which means no PKCE (RFC 8414 §2), though the seed's flow is Authorization Code with PKCE";
  if (!methods.includes("S256"))
    return `code_challenge_methods_supported is ${JSON.stringify(methods)}, without S256, which RFC 7636 §4.2 makes mandatory to implement`;
  if (methods.length === 1) return "";
  const problem = `code_challenge_methods_supported is ${JSON.stringify(methods)}, not ["S256"] (the contract allows S256 only, RFC 9700 §2.1.1)`;
  const assumption = s256OnlyAssumption(session);
  return assumption === undefined
    ? problem
    : assumptionBroken(
        session.judge.assumption("pkce_s256_only", "getOpenIdConfiguration", "discovery document"),
        problem,
        assumption,
      );
}

export async function checkDiscovery(session: Session): Promise<Discovery | undefined> {
  const exchange = await get(session, "getOpenIdConfiguration", "discovery document");
  const document = jsonObject(exchange.response?.json);
  if (!document) {
    for (const check of ["discovery_fields_and_issuer", "discovery_rs256_and_openid", "pkce_s256_only"]) {
      session.ledger.add(
        verdictOf(
          check,
          "getOpenIdConfiguration",
          `no JSON discovery document (status ${exchange.response?.status ?? exchange.error}; OpenID Connect Discovery §4.2)`,
          exchange,
          "discovery document",
        ),
      );
    }
    return undefined;
  }
  session.ledger.add(
    verdictOf(
      "discovery_fields_and_issuer",
      "getOpenIdConfiguration",
      fieldProblems(session, document).join("; "),
      exchange,
      "discovery document",
    ),
  );

  const algorithms: string[] = [];
  if (lacks(document.id_token_signing_alg_values_supported, "RS256"))
    algorithms.push(
      `id_token_signing_alg_values_supported (${JSON.stringify(document.id_token_signing_alg_values_supported)}) lacks RS256 (OpenID Connect Discovery §3: RS256 MUST be included)`,
    );
  if (lacks(document.scopes_supported, "openid"))
    algorithms.push(
      `scopes_supported (${JSON.stringify(document.scopes_supported)}) lacks openid (OpenID Connect Discovery §3: it MUST)`,
    );
  session.ledger.add(
    verdictOf(
      "discovery_rs256_and_openid",
      "getOpenIdConfiguration",
      algorithms.join("; "),
      exchange,
      "discovery document",
    ),
  );
  session.ledger.add(
    verdictOf(
      "pkce_s256_only",
      "getOpenIdConfiguration",
      pkceProblem(session, document.code_challenge_methods_supported),
      exchange,
      "discovery document",
    ),
  );
  return { document, exchange };
}

const KEY_MEMBERS: Record<string, string[]> = { RSA: ["n", "e"], EC: ["crv", "x", "y"], OKP: ["crv", "x"] };

function keyProblems(keys: unknown[]): string[] {
  const problems: string[] = [];
  keys.forEach((value, index) => {
    const key = jsonObject(value);
    const where = `key ${index}${key?.kid ? ` (kid ${shown(key.kid)})` : ""}`;
    if (!key) return problems.push(`${where} is not an object (RFC 7517 §5)`);
    if (typeof key.kty !== "string") return problems.push(`${where} has no kty (RFC 7517 §4.1)`);
    const absent = (KEY_MEMBERS[key.kty] ?? []).filter((m) => typeof key[m] !== "string");
    if (absent.length) problems.push(`${where} (${key.kty}) lacks ${absent.join(", ")} (RFC 7518 §6)`);
    if (key.d !== undefined || key.p !== undefined)
      problems.push(`${where} publishes private key members (RFC 7517 §5: a public JWK Set)`);
    return undefined;
  });
  if (
    !keys.some((value) => {
      const key = jsonObject(value);
      return key && (key.use === undefined || key.use === "sig");
    })
  )
    problems.push("no key may be used for signatures (OpenID Connect Core §10.1: the id_token's key is in the JWKS)");
  return problems;
}

export async function checkJwks(session: Session): Promise<unknown[] | undefined> {
  const exchange = await get(session, "getJwks", "JWKS");
  const keys: unknown = jsonObject(exchange.response?.json)?.keys;
  if (!Array.isArray(keys)) {
    session.ledger.add(
      verdictOf(
        "jwks_shape",
        "getJwks",
        `no keys array in the JWKS (status ${exchange.response?.status ?? exchange.error}; RFC 7517 §5)`,
        exchange,
        "JWKS",
      ),
    );
    return undefined;
  }
  const list: unknown[] = keys;
  session.ledger.add(verdictOf("jwks_shape", "getJwks", keyProblems(list).join("; "), exchange, "JWKS"));
  const kids = list.map((key) => jsonObject(key)?.kid).filter((kid): kid is string => typeof kid === "string");
  const repeated = [...new Set(kids.filter((kid, index) => kids.indexOf(kid) !== index))];
  const unnamed =
    list.length > 1 && kids.length < list.length
      ? "several keys and not every one has a kid (OpenID Connect Core §10.1: kid is required with several keys)"
      : "";
  session.ledger.add(
    verdictOf(
      "jwks_unique_kids",
      "getJwks",
      [
        repeated.length
          ? `kid ${repeated.join(", ")} is used by more than one key (RFC 7517 §4.5: kids are distinct within a set)`
          : "",
        unnamed,
      ]
        .filter(Boolean)
        .join("; "),
      exchange,
      "JWKS",
    ),
  );
  return list;
}
