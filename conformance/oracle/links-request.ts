// How the independent links server reads a request body: JSON that parses to an object, an empty body as {}, and
// anything else as broken (answered 400 with the envelope).
import type { IncomingMessage } from "node:http";

export async function readJson(request: IncomingMessage): Promise<{ body: Record<string, unknown>; broken: boolean }> {
  let text = "";
  for await (const chunk of request) text += chunk;
  if (text.trim() === "") return { body: {}, broken: false };
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? { body: parsed as Record<string, unknown>, broken: false }
      : { body: {}, broken: true };
  } catch {
    return { body: {}, broken: true };
  }
}
