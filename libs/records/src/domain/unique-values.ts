import type { Attribute, StoredValue } from '@workbase/schema';
import { ConflictError } from '@workbase/shared/kernel';
import type { ValuePlan } from './value-plan';

/**
 * The unique-value rule of a write: a unique attribute's values the plan closes give up their
 * claims, the ones it opens are claimed (in order; the database holds one claim per value). Not
 * unique: nothing to claim or release.
 */
export function uniqueClaims(attribute: Pick<Attribute, 'isUnique'>, plan: ValuePlan): { release: string[]; claim: StoredValue[] } {
  if (!attribute.isUnique) return { release: [], claim: [] };
  return { release: plan.close.map((row) => row.key), claim: [...plan.open] };
}

/** A claimed value another record holds: 409 `uniqueness_conflict`, naming the attribute, the value and that record. */
export function uniquenessConflict(attribute: Pick<Attribute, 'slug'>, key: string, holder: string): ConflictError {
  return new ConflictError('uniqueness_conflict', `The value "${key}" of unique attribute "${attribute.slug}" already belongs to record ${holder}.`, {
    attribute: attribute.slug,
    conflicting_record_id: holder,
  });
}
