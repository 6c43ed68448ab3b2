import { isPgError } from '@workbase/shared/persistence';
import { scimUniquenessConflict } from '../domain/scim-error';

/**
 * Turns a unique-index violation that slipped past the explicit checks (two writers racing on
 * different keys of the same row) into the SCIM 409, and rethrows anything else.
 */
export async function uniqueViolationAsConflict<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isPgError(error, 'uniqueViolation')) throw scimUniquenessConflict(message);
    throw error;
  }
}
