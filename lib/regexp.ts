// Text that must match literally inside a regular expression built from it.

/** `text` with every character that is special in a regular expression escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
