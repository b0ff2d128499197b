// The docs site: hand-written guides in docs/guide/, and per API a reference, a quirks and a gaps page generated from
// the bundles in generated/openapi/ (scripts/docs/) plus the standalone Redoc page from generated/reference/.
// Mermaid diagrams are rendered to images at build time (scripts/docs/diagrams.ts).
import { readFileSync } from "node:fs";
import { defineConfig, type DefaultTheme } from "vitepress";
import { bundlePath } from "../../lib/paths.js";
import { mermaidSources, renderMissingDiagrams, replaceMermaidFences } from "../../scripts/docs/diagrams.js";
import { apiTitles, handWrittenPages, writeGeneratedPages } from "../../scripts/docs/pages.js";
import { redocHref } from "../../scripts/docs/reference-page.js";

// The generated pages must exist before VitePress collects the pages, which happens right after it loads this file.
writeGeneratedPages();
// All diagrams at once, so that a build starts the browser at most once.
await renderMissingDiagrams(handWrittenPages().flatMap((page) => mermaidSources(readFileSync(page, "utf8"))));
const apis = apiTitles();

const sidebar: DefaultTheme.SidebarItem[] = [
  {
    text: "Introduction",
    items: [
      { text: "Getting started", link: "/guide/getting-started" },
      { text: "Conformance checking", link: "/guide/conformance" },
    ],
  },
  ...apis.map(({ api, title }) => ({
    text: title,
    collapsed: false,
    items: [
      { text: "Guide", link: `/guide/${api}` },
      // The OpenID provider checks of `contracts conform identity`, mapped to the OpenID Foundation's test modules.
      ...(api === "identity" ? [{ text: "Conformance checks", link: "/guide/identity-conformance" }] : []),
      { text: "Reference", link: `/reference/${api}/` },
      { text: "Quirks", link: `/reference/${api}/quirks` },
      { text: "Gaps", link: `/reference/${api}/gaps` },
      { text: "Standalone reference (Redoc)", link: redocHref(api), target: "_blank" },
    ],
  })),
];

export default defineConfig({
  title: "Platform API contracts",
  description: "Guides and reference for the identity, links, catalog and pay APIs, generated from their OpenAPI contracts.",
  lang: "en-GB",
  cleanUrls: true,
  lastUpdated: false,
  head: [["link", { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" }]],
  themeConfig: {
    nav: [
      { text: "Getting started", link: "/guide/getting-started" },
      { text: "Guides", items: apis.map(({ api, title }) => ({ text: title, link: `/guide/${api}` })) },
      {
        text: "Reference",
        items: [
          { text: "Generated from the specs", items: apis.map(({ api, title }) => ({ text: title, link: `/reference/${api}/` })) },
          { text: "Standalone (Redoc, works offline)", items: apis.map(({ api, title }) => ({ text: title, link: redocHref(api), target: "_blank" })) },
        ],
      },
    ],
    sidebar,
    outline: { level: [2, 3] },
    search: { provider: "local" },
  },
  vite: {
    // The standalone Redoc pages in public/ are finished files, not entries whose imports Vite should scan.
    optimizeDeps: { entries: ["**/*.html", "!public/**"] },
    plugins: [
      {
        name: "contracts:diagrams",
        enforce: "pre",
        async transform(code, id) {
          if (id.endsWith(".md") && code.includes("```mermaid")) return replaceMermaidFences(code);
          return undefined;
        },
      },
      {
        // `docs:dev`: a regenerated bundle (`npm run generate`) rewrites the reference pages, which VitePress reloads.
        name: "contracts:regenerate-reference",
        configureServer(server) {
          const bundles = apis.map(({ api }) => bundlePath(api));
          server.watcher.add(bundles);
          server.watcher.on("change", (file) => {
            if (bundles.includes(file)) writeGeneratedPages();
          });
        },
      },
    ],
  },
});
