// Exact decimal money for the sandbox: amounts are counted in integer units (BigInt) and printed with a fixed
// number of fraction digits, never through floating-point arithmetic.

/** The largest amount the sandbox takes (pay's createOrder and catalog prices alike). */
export const MAX_AMOUNT = 1e12;

/**
 * A JSON number as its decimal digits and power of ten: value = digits × 10^exponent. It reads String(amount), the
 * shortest decimal that parses back to the same double, i.e. the number as the client wrote it; toFixed would
 * print the double's binary expansion instead (100000000000.01 → 100000000000.00999451 at 8 places) and switches
 * to exponent notation from 1e21 on.
 */
function decimalOf(amount: number): { negative: boolean; digits: bigint; exponent: number } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([-+]\d+))?$/.exec(String(amount));
  if (!match || !Number.isFinite(amount)) throw new RangeError(`not a finite number: ${amount}`);
  const fraction = match[3] ?? "";
  return {
    negative: match[1] === "-",
    digits: BigInt(match[2]! + fraction),
    exponent: Number(match[4] ?? 0) - fraction.length,
  };
}

/** How many decimals a number has as written (0.1 → 1, 1e-7 → 7, 1e21 → 0; the shortest form has no trailing 0). */
export function fractionDigits(amount: number): number {
  return Math.max(0, -decimalOf(amount).exponent);
}

/** A JSON number as integer units of 10^-digits, rounded half away from zero; throws a RangeError unless finite. */
export function toUnits(amount: number, digits: number): bigint {
  const decimal = decimalOf(amount);
  const units =
    rescale(decimal.digits, Math.max(0, -decimal.exponent), digits) * 10n ** BigInt(Math.max(0, decimal.exponent));
  return decimal.negative ? -units : units;
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
