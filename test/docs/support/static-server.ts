// Serves a built VitePress site on 127.0.0.1 the way a static host does: clean URLs (`/guide/pay` → guide/pay.html),
// directory indexes, the site's own 404 page for anything else, and the hashed files under /assets/ cached for good,
// as VitePress's deploy guide has hosts configure them. The browser then loads a page's scripts from its cache, as a
// reader's does from the second page on, and compiles them once (a fifth of Chromium's work for a page, measured).
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, normalize, relative, sep } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".ico": "image/x-icon",
};

/** The file a URL path stands for, or undefined. */
function resolveSitePath(root: string, urlPath: string): string | undefined {
  const decoded = decodeURIComponent(urlPath.split(/[?#]/)[0] ?? "/");
  const base = normalize(join(root, decoded));
  if (base !== root && !base.startsWith(root + sep)) return undefined;
  const candidates = decoded.endsWith("/")
    ? [join(base, "index.html")]
    : [base, `${base}.html`, join(base, "index.html")];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

export async function serveStatic(root: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const file = resolveSitePath(root, request.url ?? "/");
    const status = file ? 200 : 404;
    const body = file ?? join(root, "404.html");
    const immutable = file !== undefined && relative(root, file).startsWith(`assets${sep}`);
    response.writeHead(status, {
      "content-type": CONTENT_TYPES[extname(body)] ?? "application/octet-stream",
      ...(immutable ? { "cache-control": "public, max-age=31536000, immutable" } : {}),
    });
    createReadStream(body).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
