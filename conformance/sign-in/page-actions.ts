// What the browser driver does on a page, as a person would: fill the --sign-in values into the fields they name,
// tick the consent boxes of the requested scopes, press the button that goes on (browser.ts walks the pages).
import type { Page } from "playwright-core";
import { buttonScore, describeAssignment, type FieldInfo, grantsRequestedScope, matchField } from "./choices.js";

/** How long the driver waits for a page to settle, and for one action on it. */
export const SETTLE_MS = 5000;

/**
 * Fills the --sign-in values into the visible fields they name, in the one form (or the fields outside any form)
 * that takes the most of them, as a person picks one way of signing in on a page that offers several; returns
 * how many were filled, which field took which key (names only, no values) for the message of a failed sign-in, and
 * whether a password input took one.
 */
export async function fill(
  page: Page,
  signIn: Record<string, string>,
): Promise<{ filled: number; assignment: string; password: boolean }> {
  const fields: Array<FieldInfo & { form: number; options?: string[] }> = await page.evaluate(() => {
    const visible = (el: Element) =>
      !!(el as HTMLElement).offsetParent || (el as HTMLElement).getClientRects().length > 0;
    const forms = [...document.forms];
    const found = [...document.querySelectorAll("input, select, textarea")].filter(visible);
    document.querySelectorAll("[data-conform-field]").forEach((el) => el.removeAttribute("data-conform-field"));
    return found.map((el, index) => {
      el.setAttribute("data-conform-index", String(index));
      const input = el as HTMLInputElement;
      const labels = input.labels ? [...input.labels].map((l) => l.textContent ?? "").join(" ") : "";
      return {
        tag: el.tagName.toLowerCase(),
        type: (el.getAttribute("type") ?? (el.tagName === "INPUT" ? "text" : el.tagName.toLowerCase())).toLowerCase(),
        name: input.name || undefined,
        id: el.id || undefined,
        label: (labels || el.getAttribute("aria-label") || "").trim() || undefined,
        placeholder: el.getAttribute("placeholder") ?? undefined,
        autocomplete: el.getAttribute("autocomplete") ?? undefined,
        form: input.form ? forms.indexOf(input.form) : -1,
        ...(el.tagName === "SELECT"
          ? { options: [...(el as HTMLSelectElement).options].flatMap((o) => [o.value, o.text]) }
          : {}),
      };
    });
  });
  // Per form: which field takes which key (a select only takes a value it offers).
  const plans = [...new Set(fields.map((f) => f.form))].map((form) => {
    const taken = new Map<number, string>();
    for (const [key, value] of Object.entries(signIn)) {
      const candidates = fields.map((f, i) =>
        f.form !== form || taken.has(i) || (f.options && !f.options.includes(value)) ? { ...f, type: "hidden" } : f,
      );
      const index = matchField(key, candidates);
      if (index >= 0) taken.set(index, key);
    }
    return taken;
  });
  const plan = plans.sort((a, b) => b.size - a.size)[0] ?? new Map<number, string>();
  for (const [index, key] of plan) {
    const target = page.locator(`[data-conform-index="${index}"]`);
    if (fields[index]!.tag === "select") await target.selectOption(signIn[key]!, { timeout: SETTLE_MS });
    else await target.fill(signIn[key]!, { timeout: SETTLE_MS });
    await target.evaluate((el) => el.setAttribute("data-conform-field", "1"));
  }
  const password = [...plan.keys()].some((index) => fields[index]!.type === "password");
  return { filled: plan.size, assignment: describeAssignment(plan, fields), password };
}

/**
 * Ticks the unticked checkboxes (native, or ARIA role=checkbox toggles) that grant a requested scope, as a person
 * grants what the application asked for on a consent page with one box per scope; the others stay as they are.
 */
export async function tickRequestedScopes(page: Page, scopes: string[]): Promise<void> {
  if (scopes.length === 0) return;
  const boxes: Array<FieldInfo & { value?: string }> = await page.evaluate(() => {
    const visible = (el: Element) => el.getClientRects().length > 0 || !!el.closest("label")?.getClientRects().length;
    const found = [
      ...document.querySelectorAll('input[type=checkbox]:not(:checked), [role=checkbox][aria-checked="false"]'),
    ].filter((el) => visible(el) && !(el as HTMLInputElement).disabled);
    return found.map((el, index) => {
      el.setAttribute("data-conform-box", String(index));
      const input = el as HTMLInputElement;
      const labels = input.labels ? [...input.labels].map((l) => l.textContent ?? "").join(" ") : "";
      return {
        tag: el.tagName.toLowerCase(),
        type: "checkbox",
        name: input.name || el.getAttribute("name") || undefined,
        id: el.id || undefined,
        value: input.value ?? el.getAttribute("data-value") ?? undefined,
        label: (labels || el.getAttribute("aria-label") || el.textContent || "").trim() || undefined,
      };
    });
  });
  for (const [index, box] of boxes.entries()) {
    if (!grantsRequestedScope(box, scopes)) continue;
    const target = page.locator(`[data-conform-box="${index}"]`);
    if (box.tag === "input") await target.check({ timeout: SETTLE_MS, force: true });
    else await target.click({ timeout: SETTLE_MS });
  }
}

/** Presses the button a person would press: in the form just filled if any, the one that goes on, never cancel. */
export async function press(page: Page): Promise<boolean> {
  const buttons = await page.evaluate(() => {
    const visible = (el: Element) => (el as HTMLElement).getClientRects().length > 0;
    const filledForm = document.querySelector("[data-conform-field]")?.closest("form");
    const found = [...document.querySelectorAll("button, input[type=submit], input[type=image], [role=button]")].filter(
      visible,
    );
    return found.map((el, index) => {
      el.setAttribute("data-conform-button", String(index));
      const button = el as HTMLButtonElement;
      const inFilledForm = !!filledForm && (button.form === filledForm || filledForm.contains(el));
      return {
        text: `${button.name ?? ""} ${button.value ?? ""} ${el.textContent ?? ""} ${el.getAttribute("aria-label") ?? ""}`,
        inFilledForm,
        submits: el.tagName !== "BUTTON" || button.type === "submit",
      };
    });
  });
  const ranked = buttons
    .map((b, index) => ({ index, score: buttonScore(b.text) + (b.inFilledForm ? 5 : 0) + (b.submits ? 1 : 0) }))
    .sort((a, b) => b.score - a.score);
  const best = ranked[0];
  if (!best || best.score < 0) {
    // A form without a button is submitted with Enter in its last filled field.
    const field = page.locator("[data-conform-field]").last();
    if ((await field.count()) === 0) return false;
    await field.press("Enter", { timeout: SETTLE_MS });
    return true;
  }
  await page.locator(`[data-conform-button="${best.index}"]`).click({ timeout: SETTLE_MS });
  return true;
}
