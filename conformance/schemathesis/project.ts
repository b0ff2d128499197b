// `contracts schemathesis <api>`: a ready Schemathesis project for one API, written from the same sources as
// `contracts conform` (the bundle, the API's profile, the contract's words). Schemathesis reads a request schema's
// constraints as promises to refuse and knows none of our x- keywords, so the project carries our reading of them:
// a flavour of the bundle, a schemathesis.toml, and a hooks module with the contract's checks.
import { readFileSync } from "node:fs";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import { fromPackageRoot } from "../../lib/paths.js";
import { CREDENTIAL_ENV, PROFILES } from "../apis.js";
import { operationsOf } from "../contract/lookup.js";
import { DEFAULT_NONCE, type NonceMode } from "../send/nonces.js";
import { refPointer, valueAt } from "../../lib/contract/refs.js";

/** The Schemathesis release the project is written for and tested with (scripts/schemathesis-install.sh). */
export const SCHEMATHESIS_VERSION = "4.32.5";
export const SCHEMATHESIS_IMAGE = `schemathesis/schemathesis:v${SCHEMATHESIS_VERSION}`;
/** Where the Docker command mounts the project and the reports folder. */
export const DOCKER_PROJECT = "/project";
export const DOCKER_REPORTS = "/reports";

export interface ProjectFiles {
  /** file name → content */
  files: Record<string, string>;
  /** operationId → why it is left out */
  excluded: Record<string, string>;
}

export interface ProjectOptions {
  /** Include writes (--allow-writes); operations that cannot be undone need --operation too, as in conform. */
  allowWrites: boolean;
  /** Operations named with --operation: only these, and the explicit-only ones among them run. */
  operations: string[];
  /** pay: how the hooks number nonces (--nonce), by the same policy as `contracts conform`. */
  nonce?: NonceMode;
}

type Json = Record<string, unknown>;

// Keywords an `x-assumption` relaxes: what we guessed, never the provider's word, so Schemathesis does not judge it.
const ASSUMED_KEYWORDS = [
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "enum",
  "const",
  "required",
  "minItems",
  "maxItems",
  "additionalProperties",
  "unevaluatedProperties",
];

const READ_METHODS = new Set(["get", "head", "options"]);

/** Form fields that carry the registered client's credentials → the variable each is read from (as conform's). */
const BODY_CREDENTIALS: Record<string, string> = {
  client_id: CREDENTIAL_ENV.clientId,
  client_secret: CREDENTIAL_ENV.clientSecret,
};

/** Why the options leave an operation out, as `contracts conform` decides (runner.ts leftOut), or undefined. */
export function leftOutOperation(api: ApiName, operationId: string, options: ProjectOptions): string | undefined {
  const op = operationsOf(api).find((each) => each.operationId === operationId);
  if (!op) return `${api} has no operation "${operationId}"`;
  const profile = PROFILES[api];
  if (op.webhook) return "a webhook is sent by the service to you, not called by Schemathesis";
  if (options.operations.length > 0 && !options.operations.includes(operationId)) return "not named with --operation";
  const explicit = profile.explicitOnly[operationId];
  if (explicit && !(options.operations.includes(operationId) && options.allowWrites))
    return `runs only when named with --operation and --allow-writes: ${explicit}`;
  const readOnly = READ_METHODS.has(op.method) || operationId in profile.readOnly;
  if (!readOnly && !options.allowWrites) return "it writes; run with --allow-writes to include it";
  return undefined;
}

function walk(node: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(node)) for (const item of node) walk(item, visit);
  else if (node !== null && typeof node === "object") {
    visit(node as Json);
    for (const value of Object.values(node)) walk(value, visit);
  }
}

/**
 * The Schemathesis flavour of the bundle: `x-fraction-digits: n` as `multipleOf: 10^-n`; the constraints an
 * `x-assumption` marks dropped (a stricter or looser provider breaks only our guess); an assumed success status
 * (an `x-assumption` on a 2xx response) widened to `2XX`, so that a 201 is validated as the success it is; response
 * schemas loosened where Schemathesis is stricter than the contract's words (loosenResponses).
 */
export function schemathesisBundle(api: ApiName): Json {
  const bundle = structuredClone(loadContract(api).document) as unknown as Json;
  walk(bundle, (node) => {
    const digits = node["x-fraction-digits"];
    if (typeof digits === "number") node.multipleOf = Number((10 ** -digits).toFixed(digits));
    if (typeof node["x-assumption"] === "string" && ("type" in node || "$ref" in node || "properties" in node))
      for (const keyword of ASSUMED_KEYWORDS) delete node[keyword];
  });
  for (const pathItem of Object.values((bundle.paths ?? {}) as Record<string, Json>))
    for (const operation of Object.values(pathItem)) {
      const responses = (operation as Json | undefined)?.responses as Record<string, Json> | undefined;
      if (!responses) continue;
      loosenResponses(bundle, responses);
      for (const [status, response] of Object.entries(responses))
        if (/^2\d\d$/.test(status) && typeof response["x-assumption"] === "string" && !responses["2XX"]) {
          responses["2XX"] = response;
          delete responses[status];
        }
    }
  return bundle;
}

/**
 * What a response is judged by, in `node` and every component it refers to, loosened where Schemathesis is stricter
 * than our contract's words:
 * - no `additionalProperties: false` (nor `unevaluatedProperties: false`): a field the contract does not list is an
 *   observation for `contracts conform` (extra-field), never a failure, whereas Schemathesis fails the response;
 * - `format: uri` read as `iri`: the seeds say "URL" (which WHATWG's URL standard allows to hold any Unicode), and
 *   Schemathesis's own generator sends such URLs as `uri` values, which a provider may store and read back as sent.
 */
function loosenResponses(bundle: Json, responses: unknown): void {
  walkWithRefs(bundle, responses, (each) => {
    for (const keyword of ["additionalProperties", "unevaluatedProperties"])
      if (each[keyword] === false) delete each[keyword];
    if (each.format === "uri") each.format = "iri";
  });
}

/** `walk`, going on into every component a local `$ref` names (each once). */
function walkWithRefs(document: Json, node: unknown, visit: (node: Json) => void, seen = new Set<string>()): void {
  walk(node, (each) => {
    visit(each);
    const ref = each.$ref;
    if (typeof ref !== "string" || seen.has(ref)) return;
    seen.add(ref);
    walkWithRefs(document, valueAt(document, refPointer(ref)), visit, seen);
  });
}

/** The security schemes an operation may use (its own security, else the document's). */
function schemesOf(document: Json, operation: Json): string[] {
  const security = (operation.security ?? document.security ?? []) as Array<Record<string, unknown>>;
  return [...new Set(security.flatMap((requirement) => Object.keys(requirement)))];
}

/** What hooks.py reads: per operation, whether it is secured and which header gets a fresh Idempotency-Key. */
export function contractFacts(api: ApiName, nonce: NonceMode = DEFAULT_NONCE): Json {
  const document = loadContract(api).document as unknown as Json;
  const schemes = ((document.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, Json>;
  const authHeaders = new Set<string>();
  for (const scheme of Object.values(schemes)) {
    if (scheme.type === "apiKey" && scheme.in === "header") authHeaders.add(String(scheme.name).toLowerCase());
    else authHeaders.add("authorization");
  }
  const operations: Record<string, Json> = {};
  for (const op of operationsOf(api)) {
    if (op.webhook) continue;
    const operation = op.operation as unknown as Json;
    const parameters = (operation.parameters ?? []) as Json[];
    const idempotency = parameters.find((p) => p.in === "header" && p.name === "Idempotency-Key");
    const facts: Json = { secured: schemesOf(document, operation).length > 0 };
    if (idempotency) facts.idempotencyHeader = idempotency.name;
    // identity's token endpoint: the registered client authenticates in the form body (client_secret_post).
    const bodyFields = new Set<string>();
    walkWithRefs(document, operation.requestBody, (node) =>
      Object.keys(node.properties ?? {}).forEach((name) => bodyFields.add(name)),
    );
    const credentials = Object.entries(BODY_CREDENTIALS).filter(([field]) => bodyFields.has(field));
    if (credentials.length > 0) facts.bodyCredentials = Object.fromEntries(credentials);
    // A logout hint must be an id_token the provider issued; a generated one is refused for the wrong reason.
    if (parameters.some((p) => p.in === "query" && p.name === "id_token_hint")) facts.dropQuery = ["id_token_hint"];
    operations[op.operationId] = facts;
  }
  const envelope = document["x-error-envelope"] as Json | undefined;
  return {
    api,
    errorEnvelope: envelope ? { property: envelope.property, success: envelope.success } : null,
    authHeaders: [...authHeaders].sort(),
    ...(api === "pay" ? { nonce } : {}),
    operations,
  };
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** The credentials per security scheme, by environment variable (never the secret itself). */
function authSections(api: ApiName): string[] {
  const document = loadContract(api).document as unknown as Json;
  const schemes = ((document.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, Json>;
  const lines: string[] = [];
  const env = (key: keyof typeof CREDENTIAL_ENV) => `\${${CREDENTIAL_ENV[key]}}`;
  for (const [name, scheme] of Object.entries(schemes)) {
    if (api === "links" && scheme.type === "http") lines.push(`[auth.openapi.${name}]`, `bearer = "${env("token")}"`);
    if (api === "catalog" && scheme.type === "apiKey")
      lines.push(`[auth.openapi.${name}]`, `api_key = "${env("apiKey")}"`);
    // identity: the access token goes only to the operations whose security names this scheme (userinfo).
    if (api === "identity" && name === "oauth2")
      lines.push(`[auth.openapi.${name}]`, `bearer = "${env("accessToken")}"`);
    // pay signs every body: hooks.py does it, with PAY_SHOP_ID and PAY_SECRET.
  }
  return lines;
}

export function schemathesisToml(
  api: ApiName,
  options: ProjectOptions,
): { text: string; excluded: Record<string, string> } {
  const document = loadContract(api).document;
  const rate = document.info["x-rate-limit"] as { limit: number; windowSeconds: number } | undefined;
  const unit = rate ? ({ 1: "s", 60: "m", 3600: "h" } as Record<number, string>)[rate.windowSeconds] : undefined;
  const excluded: Record<string, string> = {};
  for (const op of operationsOf(api)) {
    const reason = leftOutOperation(api, op.operationId, options);
    if (reason && !op.webhook) excluded[op.operationId] = reason;
  }
  const lines = [
    `# Written by \`contracts schemathesis ${api}\` for Schemathesis ${SCHEMATHESIS_VERSION}; regenerate, do not edit.`,
    "# Secrets are read from the environment (${NAME}); none is written here.",
    'hooks = "hooks.py"',
    "# The response under test is the redirect itself, never the page it points to (a client's redirect_uri).",
    "max-redirects = 0",
  ];
  if (rate && unit) lines.push(`# The contract's x-rate-limit.`, `rate-limit = "${rate.limit}/${unit}"`);
  lines.push(
    "",
    "[reports]",
    'directory = "reports"',
    "# JUnit only: it carries the failures with the credentials filtered. VCR and HAR record every request in clear.",
    "[reports.junit]",
    "enabled = true",
    "",
    "[output.sanitization]",
    `keys-to-sanitize = ${JSON.stringify(["authorization", "x-seller-api-key", "client_secret", "access_token", "refresh_token", "code", "id_token", "password", "token"])}`,
    "",
    "[checks]",
    "# Our request schemas constrain what our clients send; only x-provider-refuses is a promise to refuse, and",
    "# hooks.py's promised_refusal checks it, with the error envelope (x-error-envelope) read as the refusal it is.",
    "negative_data_rejection.enabled = false",
    "positive_data_acceptance.enabled = false",
    "ignored_auth.enabled = false",
    "# HTTP allows 404 or 501 for a method a path does not serve; only the Allow header of a 405 is RFC 9110's word.",
    "unsupported_method.enabled = false",
    "",
  );
  if (!options.allowWrites)
    lines.push(
      "# Read-only: the stateful phase follows links into the writes left out below.",
      "[phases.stateful]",
      "enabled = false",
      "",
    );
  lines.push(...authSections(api), "");
  if (api === "identity") {
    lines.push(
      "# The registered client (Schemathesis cannot invent one): the same variables as `contracts conform identity`.",
      "[parameters]",
      `"query.client_id" = "\${${CREDENTIAL_ENV.clientId}}"`,
      `"query.redirect_uri" = "\${${CREDENTIAL_ENV.redirectUri}}"`,
      `"query.post_logout_redirect_uri" = "\${IDENTITY_POST_LOGOUT_REDIRECT_URI}"`,
      "",
    );
  }
  for (const [operationId, reason] of Object.entries(excluded))
    lines.push(
      `# ${operationId}: ${reason}`,
      "[[operations]]",
      `include-operation-id = ${tomlString(operationId)}`,
      "enabled = false",
      "",
    );
  return { text: lines.join("\n"), excluded };
}

export function schemathesisProject(api: ApiName, options: ProjectOptions): ProjectFiles {
  const { text, excluded } = schemathesisToml(api, options);
  return {
    files: {
      [`${api}.openapi.json`]: `${JSON.stringify(schemathesisBundle(api), null, 2)}\n`,
      "schemathesis.toml": text,
      "hooks.py": readFileSync(fromPackageRoot("conformance", "schemathesis", "hooks.py"), "utf8"),
      "contract-facts.json": `${JSON.stringify(contractFacts(api, options.nonce), null, 2)}\n`,
    },
    excluded,
  };
}

/** The environment variables a run of this API reads. */
export function credentialVariables(api: ApiName): string[] {
  return {
    links: [CREDENTIAL_ENV.token],
    catalog: [CREDENTIAL_ENV.apiKey],
    pay: [CREDENTIAL_ENV.shopId, CREDENTIAL_ENV.secret],
    identity: [
      CREDENTIAL_ENV.clientId,
      CREDENTIAL_ENV.clientSecret,
      CREDENTIAL_ENV.redirectUri,
      "IDENTITY_POST_LOGOUT_REDIRECT_URI",
      CREDENTIAL_ENV.accessToken,
    ],
  }[api];
}

/** The two ways to run the project: a local `st` from PyPI, and the official image with the same files mounted. */
export function runCommands(api: ApiName, dir: string, baseUrl = "<base-url>"): { local: string; docker: string } {
  const run = `run ${api}.openapi.json --url ${baseUrl}`;
  const local = `cd ${dir} && st ${run}`;
  const env = credentialVariables(api)
    .map((name) => `-e ${name}`)
    .join(" ");
  const docker = [
    "docker run --rm --network host",
    `-v "${dir}:${DOCKER_PROJECT}:ro"`,
    `-v "${dir}/reports:${DOCKER_REPORTS}"`,
    `-w ${DOCKER_PROJECT}`,
    env,
    SCHEMATHESIS_IMAGE,
    `${run} --report-dir ${DOCKER_REPORTS}`,
  ].join(" ");
  return { local, docker };
}
