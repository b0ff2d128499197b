// JSON with object keys sorted, so that two values that differ only in key order have the same text: the sandbox's
// Idempotency-Key fingerprint of a body and the runner's comparison of two answers use the same one. Built with an
// explicit stack, not recursion: a value nested thousands of levels deep must not overflow the call stack.
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Each entry is a value to write, or text (closing brackets, commas, keys) to emit as is.
  const pending: Array<{ value: unknown } | string> = [{ value }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next === "string") {
      out.push(next);
      continue;
    }
    const current = next.value;
    if (Array.isArray(current)) {
      const parts: Array<{ value: unknown } | string> = ["["];
      current.forEach((item, index) => {
        if (index > 0) parts.push(",");
        parts.push({ value: item });
      });
      parts.push("]");
      for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
    } else if (current && typeof current === "object") {
      const parts: Array<{ value: unknown } | string> = ["{"];
      Object.keys(current)
        .sort()
        .forEach((key, index) =>
          parts.push(`${index > 0 ? "," : ""}${JSON.stringify(key)}:`, {
            value: (current as Record<string, unknown>)[key],
          }),
        );
      parts.push("}");
      for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
    } else {
      out.push(JSON.stringify(current) ?? "null");
    }
  }
  return out.join("");
}
