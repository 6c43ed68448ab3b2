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
  const keys = Object.keys(value);
  const ordered: Record<string, unknown> = {};
  for (const key of jsonbKeyOrder(keys)) ordered[key] = asJsonb((value as Record<string, unknown>)[key]);
  return ordered as T;
}

/** The values of one type share their keys: each set of keys is ordered once. */
const keyOrders = new Map<string, readonly string[]>();

function jsonbKeyOrder(keys: readonly string[]): readonly string[] {
  const signature = keys.join('\u0000');
  let order = keyOrders.get(signature);
  if (!order) {
    const bytes = keys.map((key) => ({ key, bytes: Buffer.from(key, 'utf8') }));
    bytes.sort((a, b) => a.bytes.length - b.bytes.length || Buffer.compare(a.bytes, b.bytes));
    order = bytes.map(({ key }) => key);
    // Keys are the codecs' own; a bound keeps a stream of odd key sets from growing the map for ever.
    if (keyOrders.size < 1000) keyOrders.set(signature, order);
  }
  return order;
}
