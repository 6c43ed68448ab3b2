/** A timestamptz as the wire's nine-digit UTC string (PostgreSQL keeps microseconds). */
export function isoNanos(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"000Z"')`;
}

/**
 * A JSON value as a jsonb column gives it back: object keys in jsonb's order (shorter first, then
 * by their UTF-8 bytes), so an answer built from what was written reads as one read back. The
 * value must be what JSON.parse gives (numbers, strings, booleans, null, arrays, objects).
 */
export function asJsonb<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => asJsonb(item)) as T;
  const keys = Object.keys(value).map((key) => ({ key, bytes: Buffer.from(key, 'utf8') }));
  keys.sort((a, b) => a.bytes.length - b.bytes.length || Buffer.compare(a.bytes, b.bytes));
  const ordered: Record<string, unknown> = {};
  for (const { key } of keys) ordered[key] = asJsonb((value as Record<string, unknown>)[key]);
  return ordered as T;
}
