// created_values_echoed: what the run created comes back as sent, in the creation response and in the list; and the
// comparison of what a write sent with what an answer shows, which update_visible_on_read uses too.
import type { ResourceKind } from "../apis.js";
import { type ApiName, isJsonObject, loadContract } from "../../lib/contract/index.js";
import { propertiesWith } from "../contract/lookup.js";
import { pointerValue } from "../contract/links.js";
import type { OperationModel } from "../model/cases.js";
import type { Exchange } from "../model/exchange.js";
import type { Verdict } from "../model/finding.js";
import { verdictOf } from "./verdict.js";

const aliasesByApi = new Map<ApiName, Map<string, string>>();

/**
 * Response properties that show a request property under another name, from the contract's `x-echoes: <request
 * property>` (pay's order list shows createOrder's `order_id` as `payment_id`): response name → request name.
 */
function echoAliases(api: ApiName): Map<string, string> {
  let aliases = aliasesByApi.get(api);
  if (aliases) return aliases;
  aliases = new Map();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isJsonObject(node)) return;
    if (isJsonObject(node.properties)) {
      for (const [name, schema] of Object.entries(node.properties))
        if (isJsonObject(schema) && typeof schema["x-echoes"] === "string") aliases.set(name, schema["x-echoes"]);
    }
    Object.values(node).forEach(walk);
  };
  walk(loadContract(api).document);
  aliasesByApi.set(api, aliases);
  return aliases;
}

/**
 * Request fields the provider says it does not store as sent, from the contract's `x-not-echoed: <why>` on the
 * writing operation's body property (catalog's `thumbnail`: the service keeps its own copy of the image).
 */
function notEchoed(write: OperationModel): Set<string> {
  const body = write.body;
  return new Set(body ? propertiesWith(write.op.api, body.pointer, "x-not-echoed").keys() : []);
}

/**
 * Compares what a write sent (the body of `write`, the writing operation's model) with what an answer shows. A
 * request field is compared when the answer carries it under the same name, or under a name whose schema says
 * `x-echoes: <field>`, with the same JSON type; a field the answer renames without saying so or retypes (a campaign's
 * name under `domain`, an amount sent as a number and read back as a decimal string) is not compared. With `before`
 * (the resource as shown before the write), only fields whose sent value differs from it are compared: a value that
 * did not change proves nothing.
 */
export function compareWithSent(
  write: OperationModel,
  sent: unknown,
  answer: unknown,
  where: string,
  before?: unknown,
): { compared: number; differences: string[] } {
  const differences: string[] = [];
  let compared = 0;
  if (!isJsonObject(sent) || !isJsonObject(answer)) return { compared, differences };
  const aliases = echoAliases(write.op.api);
  const stored = notEchoed(write);
  for (const [shown, back] of Object.entries(answer)) {
    const name = sent[shown] !== undefined ? shown : aliases.get(shown);
    if (name === undefined || stored.has(name)) continue;
    const value = sent[name];
    if (value === undefined || value === null || typeof value === "object" || typeof back !== typeof value) continue;
    if (isJsonObject(before) && before[shown] === value) continue;
    compared += 1;
    const shownAs = name === shown ? "" : `${shown} `;
    if (back !== value)
      differences.push(
        `${name} was sent as ${JSON.stringify(value)} but ${where} shows ${shownAs}${JSON.stringify(back)}`,
      );
  }
  return { compared, differences };
}

/**
 * created_values_echoed: the creation response (or, with `listed`, the list entry) shows what the creation sent.
 * Undefined when the answer shows none of the sent fields (nothing to compare). `create` is the creation's model.
 */
export function createdValuesEchoed(
  create: OperationModel,
  kind: ResourceKind,
  sent: unknown,
  exchange: Exchange,
  where: string,
  listed?: unknown,
): Verdict | undefined {
  const answer = listed ?? pointerValue(exchange.response?.json, kind.id.replace(/\/[^/]*$/, ""), false);
  const { compared, differences } = compareWithSent(create, sent, answer, where);
  if (compared === 0) return undefined;
  const operationId = listed === undefined ? kind.create : (kind.list?.operationId ?? kind.create);
  const caseLabel = `compare what was created with ${where}`;
  return verdictOf("created_values_echoed", operationId, differences.join("; "), exchange, caseLabel);
}
