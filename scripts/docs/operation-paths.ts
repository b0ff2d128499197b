// Hand-written pages and the README write endpoint paths as they are (`POST /api/domain/add`,
// `curl http://127.0.0.1:4011/api/account`), so that the Markdown sources read and run correctly without the site.
// A path still lives in its spec: `endpointPathProblems` lists every path a page writes that no operation of the
// contracts has, and the docs tests (test/docs/operation-paths.test.ts) fail on any, naming the page and line.
import { API_NAMES, type ApiName, listOperationsOf, loadBundle } from "../../lib/contract/index.js";

interface KnownOperation {
  api: ApiName;
  method: string;
  template: RegExp;
}

let known: KnownOperation[] | undefined;

function knownOperations(): KnownOperation[] {
  known ??= API_NAMES.flatMap((api) =>
    listOperationsOf(loadBundle(api), api)
      .filter((op) => !op.webhook)
      .map((op) => ({
        api,
        method: op.method.toUpperCase(),
        template: new RegExp(`^${op.path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
      })),
  );
  return known;
}

/** The first segments of the contracts' paths (`api`, `.well-known`, `login`, `admin`). */
function pathRoots(): Set<string> {
  return new Set(knownOperations().map((op) => op.template.source.split("/")[1]!.replace(/\\/g, "")));
}

/** A path under a contract's root with at least two segments: `/api/account`, not an app's `/login` or `/api`. */
function looksLikeEndpoint(path: string, roots: Set<string>): boolean {
  const segments = path.split("/").slice(1);
  return segments.length >= 2 && roots.has(segments[0]!);
}

export interface EndpointPath {
  line: number;
  text: string;
  api?: ApiName;
  method?: string;
  path: string;
}

const METHODS = "GET|POST|PUT|PATCH|DELETE";

/**
 * The endpoint paths a Markdown page writes: local URLs of the mock (ports 4010-4013) and of the sandbox
 * (4020-4023), and `METHOD /path` in prose and diagrams and bare `` `/path` `` code spans under a contract's roots.
 * The sandbox's own `/_sandbox/` endpoints and the site's own links are not endpoints of a contract.
 */
export function endpointPaths(markdown: string): EndpointPath[] {
  const roots = pathRoots();
  const found: EndpointPath[] = [];
  markdown.split("\n").forEach((lineText, index) => {
    const line = index + 1;
    for (const match of lineText.matchAll(/http:\/\/127\.0\.0\.1:40[12]([0-3])(\/[^\s'"`)?#\\]*)/g)) {
      if (match[2] !== "/" && !match[2]!.startsWith("/_sandbox/"))
        found.push({ line, text: match[0], api: API_NAMES[Number(match[1])], path: match[2]! });
    }
    // A colon right after the path is the prose's (an error message's `GET /api/campaigns: fetch failed`).
    for (const match of lineText.matchAll(new RegExp(`\\b(${METHODS}) (/[^\\s\`<)?#]*[^\\s\`<)?#:])`, "g")))
      if (looksLikeEndpoint(match[2]!, roots)) found.push({ line, text: match[0], method: match[1], path: match[2]! });
    for (const match of lineText.matchAll(/`(\/[^\s`?#]*)`/g))
      if (looksLikeEndpoint(match[1]!, roots)) found.push({ line, text: match[0], path: match[1]! });
  });
  return found;
}

/** One line per path of the page that names no operation of the contracts: `page:line: text: problem`. */
export function endpointPathProblems(markdown: string, where: string): string[] {
  return endpointPaths(markdown)
    .filter(
      ({ api, method, path }) =>
        !knownOperations().some(
          (op) =>
            (api === undefined || op.api === api) &&
            (method === undefined || op.method === method) &&
            op.template.test(path),
        ),
    )
    .map(({ line, text, api }) => `${where}:${line}: ${text}: no operation of ${api ?? "any contract"} has this path`);
}
