/** A timestamptz as the wire's nine-digit UTC string (PostgreSQL keeps microseconds). */
export function isoNanos(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"000Z"')`;
}
