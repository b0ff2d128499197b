// `docs:dev`: regenerates the reference pages when a bundle changes (`npm run generate`), and VitePress reloads them.
// The bundles' directory is watched rather than the files: a watched file that is deleted and written again (a git
// checkout, a generator that removes its output first) loses its watch, and the pages stopped following it.
import { dirname } from "node:path";
import type { Plugin } from "vite";

export function regenerateOnBundleChange(bundles: string[], regenerate: () => void | Promise<void>): Plugin {
  return {
    name: "contracts:regenerate-reference",
    configureServer(server) {
      server.watcher.add([...new Set(bundles.map((bundle) => dirname(bundle)))]);
      const onEvent = (file: string) => {
        // A source that does not load (an overlay being edited) is reported; the server keeps the last pages.
        if (bundles.includes(file))
          Promise.resolve()
            .then(regenerate)
            .catch((error: unknown) =>
              server.config.logger.error(`the docs pages were not regenerated: ${String(error)}`),
            );
      };
      server.watcher.on("change", onEvent);
      server.watcher.on("add", onEvent);
    },
  };
}
