// Exact decimal money for the sandbox: amounts are counted in integer units (BigInt) and printed with a fixed
// number of fraction digits, never through floating-point arithmetic.

/** A JSON number as integer units of 10^-digits (rounded to that precision the way toFixed rounds). */
export function toUnits(amount: number, digits: number): bigint {
  return BigInt(amount.toFixed(digits).replace(".", ""));
}

/** A decimal string such as "12840.50" as integer units of 10^-digits. */
export function parseUnits(text: string, digits: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const fraction = (match[3] ?? "").padEnd(digits, "0");
  if (fraction.length > digits) throw new Error(`${text} has more than ${digits} fraction digits`);
  const units = BigInt(match[2]! + fraction);
  return match[1] ? -units : units;
}

/** Integer units of 10^-digits as a decimal string with exactly `digits` fraction digits. */
export function formatUnits(units: bigint, digits: number): string {
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(digits + 1, "0");
  return `${negative ? "-" : ""}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** Converts units between precisions, rounding half away from zero. */
export function rescale(units: bigint, fromDigits: number, toDigits: number): bigint {
  if (toDigits >= fromDigits) return units * 10n ** BigInt(toDigits - fromDigits);
  const divisor = 10n ** BigInt(fromDigits - toDigits);
  const half = divisor / 2n;
  return units < 0n ? -((-units + half) / divisor) : (units + half) / divisor;
}

/** `percent` of `units`, rounded half away from zero (percent may have up to 4 fraction digits). */
export function percentOf(units: bigint, percent: number): bigint {
  return rescale(units * toUnits(percent, 4), 6, 0);
}
