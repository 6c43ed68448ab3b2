import type { DomainError } from '@workbase/shared/kernel';
import { violatedUniqueConstraint } from './pg-errors';

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
