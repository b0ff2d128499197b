// The bundled contracts (generated/openapi/<api>.json). They are imported as JSON modules rather than read from
// disk, so the runtime (and the MSW handlers built on it) also runs in a browser bundle.
import catalogBundle from "../../generated/openapi/catalog.json" with { type: "json" };
import identityBundle from "../../generated/openapi/identity.json" with { type: "json" };
import linksBundle from "../../generated/openapi/links.json" with { type: "json" };
import payBundle from "../../generated/openapi/pay.json" with { type: "json" };
import type { Document } from "./model.js";

export const API_NAMES = ["identity", "links", "catalog", "pay"] as const;
export type ApiName = (typeof API_NAMES)[number];

export function isApiName(name: string): name is ApiName {
  return (API_NAMES as readonly string[]).includes(name);
}

// The JSON modules' inferred types are structural copies of the files; the model is what the code reads them as.
const bundles: Record<ApiName, Document> = {
  identity: identityBundle as unknown as Document,
  links: linksBundle as unknown as Document,
  catalog: catalogBundle as unknown as Document,
  pay: payBundle as unknown as Document,
};

/** The bundled document of one API (shared; treat it as read-only). */
export function loadBundle(api: ApiName): Document {
  return bundles[api];
}
