// The docs site: hand-written guides in docs/guide/, and per API a reference (overview, a page per tag, webhooks,
// schemas), a quirks and a gaps page generated from the bundles in generated/openapi/ (scripts/docs/), the standalone
// Redoc page from generated/reference/ and a changelog page from CHANGELOG.md.
// Mermaid diagrams are shown as the images committed beside this file, which `npm run docs:diagrams` renders
// (scripts/docs/diagrams.ts): the site starts and builds with Node alone, no browser.
import { defineConfig, type DefaultTheme } from "vitepress";
import { bundlePath } from "../../lib/paths.js";
import { replaceMermaidFences } from "../../scripts/docs/diagrams.js";
import { apiTitles, docsOverlay, referenceNavigation, writeGeneratedPages } from "../../scripts/docs/pages.js";
import { redocHref } from "../../scripts/docs/reference-page.js";
import { regenerateOnBundleChange } from "../../scripts/docs/regenerate-on-change.js";

// The generated pages must exist before VitePress collects the pages, which happens right after it loads this file.
await writeGeneratedPages();
const overlay = docsOverlay();
const apis = apiTitles();

// Only pages of this site: previous/next links follow the sidebar, and the client-side router cannot open the
// standalone Redoc pages (they are in the nav and on each reference overview, opened in a new tab).
const sidebar: DefaultTheme.SidebarItem[] = [
  {
    text: "Introduction",
    items: [
      { text: "Getting started", link: "/guide/getting-started" },
      { text: "Architecture", link: "/guide/architecture" },
    ],
  },
  {
    text: "Using the contracts",
    items: [
      { text: "Mock servers", link: "/guide/mock-servers" },
      { text: "Stateful sandbox", link: "/guide/sandbox" },
      { text: "Clients, types and packages", link: "/guide/packages" },
      { text: "Versioning and breaking changes", link: "/guide/versioning" },
      { text: "Conformance checking", link: "/guide/conformance" },
      { text: "Conformance: options and checks", link: "/guide/conform-reference" },
      { text: "Schemathesis users", link: "/guide/schemathesis" },
      { text: "Conformance: what the seeds say", link: "/guide/seed-sentences" },
      { text: "About this site", link: "/guide/docs-site" },
    ],
  },
  ...apis.map(({ api, title }) => ({
    text: title,
    collapsed: false,
    items: [
      { text: "Guide", link: `/guide/${api}` },
      // The OpenID provider checks of `contracts conform identity`, mapped to the OpenID Foundation's test modules.
      ...(api === "identity" ? [{ text: "Conformance checks", link: "/guide/identity-conformance" }] : []),
      { text: "Reference", collapsed: true, items: referenceNavigation(api, overlay) },
    ],
  })),
  { text: "Changes", items: [{ text: "Changelog", link: "/changelog" }] },
];

export default defineConfig({
  title: "Platform API contracts",
  description:
    "Guides and reference for the identity, links, catalog and pay APIs, generated from their OpenAPI contracts.",
  lang: "en-GB",
  cleanUrls: true,
  lastUpdated: false,
  head: [["link", { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" }]],
  themeConfig: {
    nav: [
      { text: "Getting started", link: "/guide/getting-started" },
      { text: "Guides", items: apis.map(({ api, title }) => ({ text: title, link: `/guide/${api}` })) },
      { text: "Changelog", link: "/changelog" },
      {
        text: "Reference",
        items: [
          {
            text: "Generated from the specs",
            items: apis.map(({ api, title }) => ({ text: title, link: `/reference/${api}/` })),
          },
          {
            text: "Standalone (Redoc, works offline)",
            items: apis.map(({ api, title }) => ({ text: title, link: redocHref(api), target: "_blank" })),
          },
        ],
      },
    ],
    sidebar,
    outline: { level: [2, 3] },
    search: {
      provider: "local",
      options: {
        miniSearch: {
          // Operations first: a schema page section (e.g. CreateOrderResponse) must not outrank the operation
          // (createOrder) a reader is looking for. The function is serialised into the client, so it stands alone.
          searchOptions: { boostDocument: (id: string) => (/\/reference\/[^/]+\/schemas(#|$)/.test(id) ? 0.3 : 1) },
        },
      },
    },
  },
  markdown: {
    config(md) {
      // Headings of the generated pages carry badges (<span>) and explicit anchors ({#createOrder}); the permalink's
      // aria-label repeats the heading's source, so keep only its words.
      md.core.ruler.push("plain_permalink_labels", (state) => {
        for (const token of state.tokens) {
          for (const child of token.children ?? []) {
            const label =
              child.type === "link_open" && child.attrGet("class") === "header-anchor"
                ? child.attrGet("aria-label")
                : null;
            if (label)
              child.attrSet(
                "aria-label",
                label
                  .replace(/<[^>]*>/g, "")
                  .replace(/\s*\{#[^}]*\}/, "")
                  .replace(/\s+/g, " ")
                  .replace(/ "$/, '"'),
              );
          }
        }
      });
    },
  },
  vite: {
    // The standalone Redoc pages in public/ are finished files, not entries whose imports Vite should scan.
    optimizeDeps: { entries: ["**/*.html", "!public/**"] },
    plugins: [
      {
        name: "contracts:diagrams",
        enforce: "pre",
        transform(code, id) {
          if (id.endsWith(".md") && code.includes("```mermaid")) return replaceMermaidFences(code);
          return undefined;
        },
      },
      // The deployment overlay (DOCS_OVERLAY) is a source of the pages as the bundles are.
      regenerateOnBundleChange([...apis.map(({ api }) => bundlePath(api)), ...(overlay ? [overlay.file] : [])], () =>
        writeGeneratedPages(undefined, overlay),
      ),
    ],
  },
});
