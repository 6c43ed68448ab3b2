import type { DomainError } from '@workbase/shared/kernel';

/** The constraint a PostgreSQL unique violation (SQLSTATE 23505) names, or null for any other error. */
export function violatedUniqueConstraint(error: unknown): string | null {
  const driver = (error as { driverError?: { code?: unknown; constraint?: unknown } } | undefined)?.driverError ?? (error as { code?: unknown; constraint?: unknown } | undefined);
  return driver?.code === '23505' && typeof driver.constraint === 'string' ? driver.constraint : null;
}

/**
 * Runs a write whose uniqueness was checked beforehand and maps the violation of `constraint` to
 * `conflict()`: two concurrent writes can both pass the check, and the database then refuses the
 * later one. The violation aborts the transaction, so the error must end it (it does: it is thrown).
 */
export async function conflictOnUniqueViolation<T>(constraint: string, conflict: () => DomainError, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violatedUniqueConstraint(error) === constraint) throw conflict();
    throw error;
  }
}
