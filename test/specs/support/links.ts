// Shared by the links spec tests: named examples (cloned), schema pointers, the one-change rejection check and
// the operations the seed lists.
import { expect } from "vitest";
import {
  describeErrors,
  findOperation,
  loadBundle,
  resolvePointer,
  responseSchemaPointer,
  validateAt,
} from "../../support/bundle-nodes.js";

export const API = "links" as const;
export const JSON_MEDIA = "application~1json";

export type Json = any;

/** The value of a named response example (follows `$ref`s to components/examples). */
export function responseExample(operationId: string, status: string, name: string): Json {
  const op = findOperation(API, operationId);
  return structuredClone(
    resolvePointer(API, `${op.pointer}/responses/${status}/content/${JSON_MEDIA}/examples/${name}/value`),
  );
}

/** The value of a named request-body example. */
export function requestExample(operationId: string, name: string): Json {
  const op = findOperation(API, operationId);
  return structuredClone(resolvePointer(API, `${op.pointer}/requestBody/content/${JSON_MEDIA}/examples/${name}/value`));
}

/**
 * Pointer of an operation's error (default) body schema. The default responses are `$ref`s to
 * components/responses, and Ajv cannot walk a pointer through a `$ref`, so the pointer starts at the component.
 */
export function defaultSchemaPointer(operationId: string): string {
  const ref = findOperation(API, operationId).operation.responses.default.$ref as string;
  expect(ref).toMatch(/^#\/components\/responses\//);
  return `${ref.slice(1)}/content/${JSON_MEDIA}/schema`;
}

/** Pointer of a body schema for any status; `default` goes through defaultSchemaPointer. */
export function bodySchemaPointer(operationId: string, status: string): string {
  return status === "default" ? defaultSchemaPointer(operationId) : responseSchemaPointer(API, operationId, status);
}

export function expectValid(pointer: string, data: unknown): void {
  const result = validateAt(API, pointer, data);
  expect(result.valid, describeErrors(result.errors)).toBe(true);
}

export function expectInvalid(pointer: string, data: unknown): void {
  expect(validateAt(API, pointer, data).valid).toBe(false);
}

/** Takes a valid example, applies one change, and asserts the original passes and the changed copy fails. */
export function rejectsMutation(pointer: string, example: Json, mutate: (copy: Json) => void): void {
  expectValid(pointer, example);
  const copy = structuredClone(example);
  mutate(copy);
  expectInvalid(pointer, copy);
}

/** Every value of every `x-undocumented` list in the bundle, with the JSON pointer where it lives. */
export function undocumentedEntries(): Array<{ at: string; text: string }> {
  const found: Array<{ at: string; text: string }> = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, `${at}/${i}`));
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === "x-undocumented" && Array.isArray(value)) {
        for (const text of value) found.push({ at, text: String(text) });
      } else {
        walk(value, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      }
    }
  };
  walk(loadBundle(API), "");
  return found;
}

export const EXPECTED_OPERATIONS: Record<string, [string, string, string]> = {
  getAccount: ["get", "/api/account", "account"],
  updateAccount: ["put", "/api/account/update", "account"],
  listDomains: ["get", "/api/domains", "domains"],
  addDomain: ["post", "/api/domain/add", "domains"],
  updateDomain: ["put", "/api/domain/{id}/update", "domains"],
  deleteDomain: ["delete", "/api/domain/{id}/delete", "domains"],
  listOverlays: ["get", "/api/overlay", "overlays"],
  listCampaigns: ["get", "/api/campaigns", "campaigns"],
  addCampaign: ["post", "/api/campaign/add", "campaigns"],
  assignLinkToCampaign: ["post", "/api/campaign/{campaignid}/assign/{linkid}", "campaigns"],
  updateCampaign: ["put", "/api/campaign/{id}/update", "campaigns"],
  deleteCampaign: ["delete", "/api/campaign/{id}/delete", "campaigns"],
  listChannels: ["get", "/api/channels", "channels"],
  listChannelItems: ["get", "/api/channel/{id}", "channels"],
  addChannel: ["post", "/api/channel/add", "channels"],
};

export const LIST_OPERATIONS: Record<string, [string, string]> = {
  listDomains: ["twoDomains", "domains"],
  listOverlays: ["twoOverlays", "cta"],
  listCampaigns: ["twoCampaigns", "campaigns"],
  listChannels: ["twoChannels", "channels"],
  listChannelItems: ["marketingChannelItems", "items"],
};

export const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
