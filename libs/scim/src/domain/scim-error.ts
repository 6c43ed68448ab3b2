import { ConflictError, ValidationError } from '@workbase/shared/kernel';

/** The `scimType` values of RFC 7644 §3.12 that this service emits. */
export type ScimType = 'invalidFilter' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'mutability' | 'uniqueness' | 'tooMany';

/** A 400 in the SCIM error schema; the error filter writes `details.scimType` as `scimType`. */
export function scimBadRequest(scimType: ScimType, message: string): ValidationError {
  return new ValidationError(message, { scimType });
}

/** A 409 with `scimType: uniqueness` (RFC 7644 §3.3). */
export function scimUniquenessConflict(message: string): ConflictError {
  return new ConflictError('uniqueness_conflict', message, { scimType: 'uniqueness' });
}
