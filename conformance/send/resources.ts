// The resources a run creates: the tracker that records them, the tag that marks them as the run's own, and the
// cleanup that deletes them at the end of the run, also after a failure or Ctrl-C.
import type { ResourceKind } from "../apis.js";
import { exampleCases } from "../plan/cases.js";
import { type RequestCase } from "../model/cases.js";
import { isSuccess } from "../contract/words.js";
import type { RunContext } from "../context.js";
import type { CaseSender } from "./sender.js";
import type { Exchange } from "../model/exchange.js";

export interface TrackedResource {
  kind: string;
  id: string | number | undefined;
  createdBy: string;
  state: "created" | "deleted" | "left behind";
  /** Why it is left behind (no delete operation, a delete that failed, an interrupted cleanup). */
  note?: string;
}

export class ResourceTracker {
  readonly resources: TrackedResource[] = [];
  private readonly kinds = new Map<TrackedResource, ResourceKind>();

  created(kind: ResourceKind, id: string | number | undefined, createdBy: string): TrackedResource {
    const existing = this.resources.find((r) => r.kind === kind.name && id !== undefined && r.id === id);
    if (existing) return existing;
    const resource: TrackedResource = { kind: kind.name, id, createdBy, state: "created" };
    this.resources.push(resource);
    this.kinds.set(resource, kind);
    return resource;
  }

  /** Resources the run ended otherwise than by a delete operation (identity's revoked tokens, identity/cleanup.ts). */
  endedElsewhere(resources: TrackedResource[]): void {
    this.resources.push(...resources);
  }

  kindOf(resource: TrackedResource): ResourceKind {
    return this.kinds.get(resource)!;
  }
}

/** A success as the contract defines it: a 2xx whose body's error envelope (x-error-envelope) signals no error. */
export const succeeded = (context: Pick<RunContext, "options">, exchange: Exchange) =>
  isSuccess(context.options.api, exchange.response);

/**
 * Deletes every resource the run created that is not deleted yet. The caller has the transport ignore Ctrl-C first:
 * the cleanup runs after one.
 */
export async function cleanUp(context: RunContext, send: CaseSender, tracker: ResourceTracker): Promise<void> {
  for (const resource of tracker.resources) {
    if (resource.state !== "created") continue;
    const kind = tracker.kindOf(resource);
    if (!kind.delete) {
      resource.state = "left behind";
      resource.note = kind.undeletable ?? "the contract has no delete operation";
      continue;
    }
    if (resource.id === undefined) {
      resource.state = "left behind";
      resource.note = "the creation response carried no id";
      continue;
    }
    const exchange = await deleteResource(context, send, kind, resource.id);
    if (exchange && (succeeded(context, exchange) || exchange.response?.status === 404)) resource.state = "deleted";
    else {
      resource.state = "left behind";
      const outcome = exchange?.response ? `status ${exchange.response.status}` : (exchange?.error ?? "not sent");
      resource.note = `delete failed: ${outcome}`;
    }
  }
}

async function deleteResource(
  context: RunContext,
  send: CaseSender,
  kind: ResourceKind,
  id: string | number,
): Promise<Exchange | undefined> {
  if (!kind.delete) return undefined;
  const model = context.model(kind.delete.operationId);
  const base = exampleCases(model, context.profile, context.options.credentials)[0] ?? {
    origin: "example",
    label: "delete",
    path: {},
    query: {},
    headers: {},
  };
  const requestCase: RequestCase = {
    ...structuredClone(base),
    path: { ...base.path, [kind.delete.pathParameter]: id },
    origin: "sequence",
    label: `delete ${kind.name} ${id}`,
  };
  return send.send(model, requestCase);
}

/**
 * Makes the identifying fields of a creation unique to this run (`conformance <tag>`), so that the contract's
 * examples do not collide with resources that already exist and what the run created is recognisable.
 */
export function markAsOurs(requestCase: RequestCase, context: Pick<RunContext, "options">): RequestCase {
  const body = requestCase.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== "object" || Array.isArray(body)) return requestCase;
  const tag = runTag(context.options.seed);
  const copy = { ...body };
  for (const field of ["name", "title"]) if (typeof copy[field] === "string") copy[field] = `conformance ${tag}`;
  if (typeof copy.domain === "string") copy.domain = `https://conformance-${tag}.example.com`;
  if (typeof copy.slug === "string") copy.slug = `conformance-${tag}`;
  if (typeof copy.order_id === "string") copy.order_id = `conformance-${tag}`;
  return { ...requestCase, body: copy };
}

let tagCounter = 0;
function runTag(seed: number): string {
  tagCounter += 1;
  return `${seed.toString(36)}-${Date.now().toString(36)}-${tagCounter}`;
}
