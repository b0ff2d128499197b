// The stock oidc-provider's own store, readable by a test: an oidc-provider storage adapter (its documented Adapter
// interface, kept in memory as its default one is) that lets a test count what the provider still holds live, the
// refresh tokens, access tokens and sessions a run left behind. Consumed, destroyed (revoked) and expired entries are
// not live.
import type { Adapter, AdapterConstructor, AdapterPayload } from "oidc-provider";

interface Stored {
  payload: AdapterPayload;
  expiresAt?: number;
}

export interface StockStore {
  /** The adapter class to give oidc-provider (its `adapter` option). */
  adapter: AdapterConstructor;
  /** How many entries of a model (RefreshToken, AccessToken, Session...) are live now, those `where` holds for only. */
  live(model: string, where?: (payload: AdapterPayload) => boolean): number;
  /** The ids of every entry of a model ever stored (an opaque token's id is its value). */
  idsEver(model: string): string[];
}

export function stockStore(): StockStore {
  const byModel = new Map<string, Map<string, Stored>>();
  const ever = new Map<string, Set<string>>();
  const grants = new Map<string, Set<string>>();
  const modelOf = (name: string) => byModel.get(name) ?? byModel.set(name, new Map()).get(name)!;
  class MemoryStore implements Adapter {
    private readonly entries: Map<string, Stored>;
    constructor(private readonly name: string) {
      this.entries = modelOf(name);
    }
    upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      this.entries.set(id, { payload, ...(expiresIn ? { expiresAt: Date.now() + expiresIn * 1000 } : {}) });
      (ever.get(this.name) ?? ever.set(this.name, new Set()).get(this.name)!).add(id);
      if (payload.grantId)
        (grants.get(payload.grantId) ?? grants.set(payload.grantId, new Set()).get(payload.grantId)!).add(
          `${this.name} ${id}`,
        );
      return Promise.resolve();
    }
    find(id: string) {
      const stored = this.entries.get(id);
      return Promise.resolve(
        stored && (!stored.expiresAt || stored.expiresAt > Date.now()) ? stored.payload : undefined,
      );
    }
    findByUid(uid: string) {
      return Promise.resolve([...this.entries.values()].find((s) => s.payload.uid === uid)?.payload);
    }
    findByUserCode(userCode: string) {
      return Promise.resolve([...this.entries.values()].find((s) => s.payload.userCode === userCode)?.payload);
    }
    consume(id: string) {
      const stored = this.entries.get(id);
      if (stored) stored.payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }
    destroy(id: string) {
      this.entries.delete(id);
      return Promise.resolve();
    }
    revokeByGrantId(grantId: string) {
      for (const entry of grants.get(grantId) ?? []) {
        const [name, id] = entry.split(" ");
        byModel.get(name!)?.delete(id!);
      }
      grants.delete(grantId);
      return Promise.resolve();
    }
  }
  return {
    adapter: MemoryStore,
    live: (model, where = () => true) =>
      [...(byModel.get(model)?.values() ?? [])].filter(
        (s) => !s.payload.consumed && (!s.expiresAt || s.expiresAt > Date.now()) && where(s.payload),
      ).length,
    idsEver: (model) => [...(ever.get(model) ?? [])],
  };
}
