import { scimUniquenessConflict } from '../domain/scim-error';

/**
 * Turns a unique-index violation that slipped past the explicit checks (two writers racing on
 * different keys of the same row) into the SCIM 409, and rethrows anything else.
 */
export async function uniqueViolationAsConflict<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;
    if (code === '23505') throw scimUniquenessConflict(message);
    throw error;
  }
}
