// The default theme, plus the styles of the generated reference pages and the pre-rendered diagrams, the console of
// the operations (TryIt) and the copy-link buttons of the operation headers.
import DefaultTheme from "vitepress/theme";
import type { Theme } from "vitepress";
import TryIt from "./TryIt.vue";
import "./custom.css";
import "./reference.css";

/** Copies the address of an operation (its stable anchor, the operationId) when its "Copy link" button is pressed. */
function onCopyLink(event: MouseEvent): void {
  const button = (event.target as Element | null)?.closest?.("button.copy-link");
  if (!(button instanceof HTMLButtonElement)) return;
  const link = `${location.origin}${location.pathname}#${button.dataset.anchor ?? ""}`;
  const done = (text: string) => {
    button.textContent = text;
    setTimeout(() => (button.textContent = "Copy link"), 1500);
  };
  navigator.clipboard.writeText(link).then(
    () => done("Copied"),
    () => {
      history.replaceState(history.state, "", `#${button.dataset.anchor ?? ""}`);
      done("Link in the address bar");
    },
  );
}

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component("TryIt", TryIt);
    if (typeof document !== "undefined") document.addEventListener("click", onCopyLink);
  },
} satisfies Theme;
