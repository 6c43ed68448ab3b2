/**
 * TypeORM's raw `query()` on PostgreSQL returns the rows for SELECT/INSERT but `[rows, rowCount]`
 * for UPDATE/DELETE; this gives the rows in every case.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
