// The sandbox keeps its state in plain objects (they persist as JSON), some under keys that clients choose: an
// Idempotency-Key, a currency code. These read and write such a key as an own property, so that "constructor" or
// "__proto__" is a key like any other and never reaches Object.prototype.

export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function setOwnValue<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
