// What the runner must know about each API beyond the schemas: how a request is authenticated (and how to send it
// with no or wrong credentials), which request values come from the credentials instead of the generator, which
// POSTs only read, and the resources the stateful sequences follow where the bundle's Link Objects cannot describe
// them. Everything that the bundles do say (operations, schemas, security schemes, x-rate-limit, Link Objects) is
// read from them, not repeated here.
import { hmacSha256Signer } from "../lib/pay-signature.js";
import type { NonceSource } from "../lib/nonce.js";
import { type ApiName, loadContract } from "../lib/contract/index.js";

export interface Credentials {
  token?: string;
  apiKey?: string;
  /** A second, narrower catalog key without the write scopes (scope_enforcement). */
  readApiKey?: string;
  shopId?: string;
  secret?: string;
  clientId?: string;
  clientSecret?: string;
  /** Another client of the provider (refresh_token_client_bound: a refresh token is bound to its client). */
  secondClientId?: string;
  secondClientSecret?: string;
  redirectUri?: string;
  accessToken?: string;
  /** Fields of the provider's sign-in form, e.g. `{ login: "alice", password: "..." }` (identity flow checks). */
  signIn?: Record<string, string>;
}

/** Where each credential comes from when no flag gives it; also the name a curl reproduction uses. */
export const CREDENTIAL_ENV: Record<keyof Credentials, string> = {
  token: "LINKS_TOKEN",
  apiKey: "CATALOG_API_KEY",
  readApiKey: "CATALOG_READ_API_KEY",
  shopId: "PAY_SHOP_ID",
  secret: "PAY_SECRET",
  clientId: "IDENTITY_CLIENT_ID",
  clientSecret: "IDENTITY_CLIENT_SECRET",
  secondClientId: "IDENTITY_SECOND_CLIENT_ID",
  secondClientSecret: "IDENTITY_SECOND_CLIENT_SECRET",
  redirectUri: "IDENTITY_REDIRECT_URI",
  accessToken: "IDENTITY_ACCESS_TOKEN",
  signIn: "IDENTITY_SIGN_IN",
};

/** Credentials that are secrets: never printed, replaced by their environment variable in reproductions. */
export const SECRET_CREDENTIALS = [
  "token",
  "apiKey",
  "readApiKey",
  "secret",
  "clientSecret",
  "secondClientSecret",
  "accessToken",
] as const;

/** An HTTP request as it is sent. */
export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Signed with the real secret (pay): a reproduction must re-sign it in the shell. */
  signed?: boolean;
  /**
   * The body carries a single-use nonce (pay): a reproduction puts a fresh one in, or the server refuses it as used.
   */
  nonce?: boolean;
  /** Signed on purpose with this made-up key (a wrong signature, not a secret): a reproduction re-signs with it. */
  wrongKey?: string;
}

/** A case-insensitive reader of a request's headers. */
export function headerOf(request: PreparedRequest, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(request.headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * valid: the run's credentials; none; wrong: a made-up credential; read-only: the narrower key (--read-only-api-key).
 */
export type AuthMode = "valid" | "none" | "wrong" | "read-only";

/**
 * A resource the stateful sequences create and follow; operation ids refer to the API's bundle. Most are derived
 * from the bundle's Link Objects (conformance/contract/links.ts); a profile lists only those the links cannot describe.
 */
export interface ResourceKind {
  name: string;
  create: string;
  /** JSON pointer (RFC 6901) of the new resource's id in the creation response; its parent is the resource. */
  id: string;
  /** The list that shows the resource: where its rows are (`items`) and the id in a row (`itemId`), both pointers. */
  list?: { operationId: string; items: string; itemId: string; pageParameter?: { in: "query" | "body"; name: string } };
  update?: { operationId: string; pathParameter: string };
  delete?: { operationId: string; pathParameter: string };
  /** A read of the one resource by its id. */
  read?: { operationId: string; pathParameter: string };
  /** Why it cannot be deleted, when the contract has no delete operation. */
  undeletable?: string;
}

/** Values that mark generated fields the runner fills at send time (fresh on every request). */
export const NONCE_PLACEHOLDER = 9_007_199_254_740_000;
export const IDEMPOTENCY_PLACEHOLDER = "fresh-idempotency-key";

export interface ApiProfile {
  api: ApiName;
  /** Credentials this API needs, as [field, flag]. */
  needs: Array<[keyof Credentials, string]>;
  /** Operations that are POSTs in HTTP terms but only read, with why. */
  readOnly: Record<string, string>;
  /** Operations that run only when named with --operation (and --allow-writes), with why. */
  explicitOnly: Record<string, string>;
  /**
   * Why valid requests of an operation cannot be expected to succeed (e.g. a one-time value the generator cannot know).
   */
  noPositiveAcceptance(operationId: string, credentials: Credentials): string | undefined;
  resources: ResourceKind[];
  /**
   * What the seed says list parameters do, and where a list response reports them (list_parameters_honoured):
   * `envelope` is the object around the page's array; the page-size and page-number query parameters and the
   * envelope fields that report them; `lastPage` the envelope field with the last page's number.
   */
  listParameters?: {
    envelope: string;
    pageSize: { parameter: string; reportedBy: string };
    pageNumber: { parameter: string; reportedBy: string };
    lastPage: string;
  };
  /**
   * Values the seed reports only as seen together in a list's rows (seen_together): where `field` has one of the
   * values, `other` has been seen with that JSON type. An observation, not a rule: breaking it breaks `assumption`.
   */
  seenTogether?: {
    operationId: string;
    rows: string;
    field: string;
    other: string;
    seen: Array<{ value: unknown; type: "null" | "string" }>;
    assumption: string;
  };
  /**
   * Writes on a resource that has no id (the account), and the read that shows it afterwards (update_visible_on_read).
   */
  singletonUpdates?: Array<{ update: string; read: string; at: string }>;
  /** Fills request values that come from the credentials (applies to every generated case). */
  bind(operationId: string, parts: RequestParts, credentials: Credentials): void;
  /** Applies authentication (and send-time values such as nonces) to a request about to be sent. */
  finalize(operationId: string, request: PreparedRequest, mode: AuthMode, context: SendContext): Promise<void>;
}

export interface RequestParts {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body?: unknown;
}

export interface SendContext {
  credentials: Credentials;
  nonces: NonceSource;
  /** Remembers a derived secret (a signature) so that no output shows it. */
  registerSecret(value: string, replacement: string): void;
  /** Whether an operation uses security (from the bundle). */
  secured: boolean;
}

const WRONG_SECRET = "conformance-wrong-credential-0000";

function bearer(request: PreparedRequest, secret: string | undefined, mode: AuthMode): void {
  if (mode === "valid" && secret !== undefined) request.headers.Authorization = `Bearer ${secret}`;
  if (mode === "wrong") request.headers.Authorization = `Bearer ${WRONG_SECRET}`;
}

function asObject(body: unknown): Record<string, unknown> | undefined {
  return body !== null && typeof body === "object" && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

export const PROFILES: Record<ApiName, ApiProfile> = {
  links: {
    api: "links",
    needs: [["token", "--token"]],
    readOnly: {},
    explicitOnly: {
      updateAccount:
        "it changes the e-mail address or password of the account that owns the key, which the run cannot undo",
      assignLinkToCampaign:
        "it needs a short link, which the contract gives no way to create, so it would change one of yours",
    },
    noPositiveAcceptance: () => undefined,
    // domain, campaign and channel come from the Link Objects of links.yaml (addDomain → updateDomain, ...).
    resources: [],
    // Links seed: "List endpoints take optional query parameters limit (results per page) and page (current page
    // number)", reported by the pagination envelope inside `data` (perpage, currentpage, maxpage).
    listParameters: {
      envelope: "/data",
      pageSize: { parameter: "limit", reportedBy: "perpage" },
      pageNumber: { parameter: "page", reportedBy: "currentpage" },
      lastPage: "maxpage",
    },
    // PUT /api/account/update changes the e-mail address that GET /api/account shows.
    singletonUpdates: [{ update: "updateAccount", read: "getAccount", at: "/data" }],
    bind() {},
    finalize(_operationId, request, mode, context) {
      bearer(request, context.credentials.token, mode);
      return Promise.resolve();
    },
  },
  catalog: {
    api: "catalog",
    needs: [["apiKey", "--api-key"]],
    readOnly: {},
    explicitOnly: {},
    noPositiveAcceptance: () => undefined,
    // No operation takes a product id, so no Link Object can name the id of a new product: kept here.
    resources: [
      {
        name: "product",
        create: "createProduct",
        id: "/id",
        undeletable: "the contract has no operation to delete a product",
      },
    ],
    bind(_operationId, parts) {
      if ("Idempotency-Key" in parts.headers) parts.headers["Idempotency-Key"] = IDEMPOTENCY_PLACEHOLDER;
    },
    finalize(_operationId, request, mode, context) {
      if (request.headers["Idempotency-Key"] === IDEMPOTENCY_PLACEHOLDER)
        request.headers["Idempotency-Key"] = globalThis.crypto.randomUUID();
      if (mode === "valid" && context.credentials.apiKey !== undefined)
        request.headers["x-seller-api-key"] = context.credentials.apiKey;
      if (mode === "read-only" && context.credentials.readApiKey !== undefined)
        request.headers["x-seller-api-key"] = context.credentials.readApiKey;
      if (mode === "wrong") request.headers["x-seller-api-key"] = WRONG_SECRET;
      return Promise.resolve();
    },
  },
  pay: {
    api: "pay",
    needs: [
      ["shopId", "--shop-id"],
      ["secret", "--secret"],
    ],
    readOnly: {
      listShops: "the contract marks it a read operation sent as POST (x-quirk)",
      listOrders: "the contract marks it a read operation sent as POST (x-quirk)",
      getBalance: "the contract marks it a read operation sent as POST (x-quirk)",
    },
    explicitOnly: {},
    noPositiveAcceptance: () => undefined,
    // Pay seed, States and transitions: an observation, so the contract's Order schema does not tie them together.
    seenTogether: {
      operationId: "listOrders",
      rows: "/data",
      field: "status",
      other: "date_payed",
      seen: [
        { value: 0, type: "null" },
        { value: 1, type: "string" },
      ],
      assumption:
        "The pay seed has only seen status 0 with date_payed null and status 1 with a date_payed timestamp; tying them together is our reading, not the provider's word.",
    },
    // No operation takes an order id, so no Link Object can say where a new order's id is or where it is listed.
    resources: [
      {
        name: "order",
        create: "createOrder",
        id: "/data/id",
        list: { operationId: "listOrders", items: "/data", itemId: "/id", pageParameter: { in: "body", name: "page" } },
        undeletable: "the contract has no operation to delete or cancel an order",
      },
    ],
    bind(_operationId, parts, credentials) {
      const body = asObject(parts.body);
      if (!body) return;
      // Not from a link to listShops: the signature is keyed with the secret of the shop given by --shop-id.
      if ("shop_id" in body && credentials.shopId !== undefined) body.shop_id = credentials.shopId;
      if ("nonce" in body) body.nonce = NONCE_PLACEHOLDER;
    },
    async finalize(_operationId, request, mode, context) {
      if (request.body !== undefined && request.body.includes(String(NONCE_PLACEHOLDER))) {
        request.body = request.body.replace(String(NONCE_PLACEHOLDER), String(await context.nonces.next()));
        request.nonce = true;
      }
      if (mode === "none") return;
      const bytes = new TextEncoder().encode(request.body ?? "");
      const secret = mode === "valid" ? context.credentials.secret : WRONG_SECRET;
      if (secret === undefined) return;
      const authorization = await hmacSha256Signer(secret)(bytes);
      if (mode === "valid") {
        context.registerSecret(
          authorization.replace(/^Bearer /, ""),
          "<HMAC-SHA256 of the body keyed with $PAY_SECRET>",
        );
        request.signed = true;
      } else request.wrongKey = secret;
      request.headers.Authorization = authorization;
    },
  },
  identity: {
    api: "identity",
    needs: [],
    readOnly: {
      exchangeToken: "generated codes and refresh tokens are unknown to the provider, so nothing is issued or changed",
      logoutWithForm: "the run has no session at the provider, so there is nothing to end",
      getUserInfoByPost: "a UserInfo request by POST reads the claims, as by GET (OpenID Connect Core §5.3.1)",
    },
    explicitOnly: {},
    noPositiveAcceptance(operationId, credentials) {
      if (operationId === "exchangeToken")
        return "a valid exchange needs a fresh authorization code or refresh token; the OpenID Connect flow checks cover it";
      if (operationId === "authorize" && (credentials.clientId === undefined || credentials.redirectUri === undefined))
        return "a valid authorization request needs a registered client (--client-id, --redirect-uri)";
      if (
        (operationId === "getUserInfo" || operationId === "getUserInfoByPost") &&
        credentials.accessToken === undefined
      )
        return "a valid userinfo request needs --access-token";
      return undefined;
    },
    resources: [],
    bind(operationId, parts, credentials) {
      const body = asObject(parts.body);
      for (const target of [parts.query, body]) {
        if (!target) continue;
        if ("client_id" in target && credentials.clientId !== undefined) target.client_id = credentials.clientId;
        if ("client_secret" in target && credentials.clientSecret !== undefined)
          target.client_secret = credentials.clientSecret;
        if ("redirect_uri" in target && credentials.redirectUri !== undefined)
          target.redirect_uri = credentials.redirectUri;
      }
      if (operationId === "authorize" && typeof parts.query.scope === "string")
        parts.query.scope = knownScopes(parts.query.scope);
      // The token goes in the Authorization header; one in the body too is refused (RFC 6750 §2: one way only).
      if (operationId === "getUserInfoByPost") delete body?.access_token;
      if (operationId === "logout" || operationId === "logoutWithForm") {
        // A post-logout address must be registered and a hint must be a real id_token: neither can be generated.
        for (const target of [parts.query, body]) {
          if (!target) continue;
          delete target.post_logout_redirect_uri;
          delete target.id_token_hint;
          if (credentials.clientId === undefined) delete target.client_id;
        }
      }
    },
    finalize(_operationId, request, mode, context) {
      if (context.secured) bearer(request, context.credentials.accessToken, mode);
      return Promise.resolve();
    },
  },
};

/**
 * A scope the provider knows: the contract's scope names (oauth2 flow), picked by the generated text so that random
 * cases still vary. A syntactically valid but unknown scope is refused with invalid_scope, as the contract says.
 */
function knownScopes(generated: string): string {
  type OAuth2Scheme = { flows?: { authorizationCode?: { scopes?: Record<string, string> } } };
  const scheme = (
    loadContract("identity").document.components?.securitySchemes as
      Record<string, OAuth2Scheme | undefined> | undefined
  )?.oauth2;
  const names = Object.keys(scheme?.flows?.authorizationCode?.scopes ?? { openid: "" }).filter((s) => s !== "openid");
  const picked = names.filter(
    (_, index) => (generated.charCodeAt(index % Math.max(generated.length, 1)) + index) % 2 === 0,
  );
  return ["openid", ...picked].join(" ");
}
