import type { Attribute, StoredValueRow } from '@workbase/schema';
import type { ValuePlan } from './value-plan';

/**
 * The mirroring rule of a relationship: both sides stay in step. The records a write links
 * (values it opens) gain the reverse link to the written record, the ones it unlinks (values it
 * closes) lose it. An attribute without a paired reverse attribute mirrors nothing.
 */
export function mirroredLinks(attribute: Pick<Attribute, 'relationshipAttributeId'>, plan: ValuePlan): { linked: string[]; unlinked: string[] } {
  if (!attribute.relationshipAttributeId) return { linked: [], unlinked: [] };
  return { linked: plan.open.map((value) => value.ref!), unlinked: plan.close.map((value) => value.ref!) };
}

/**
 * What linking `target` back to `recordId` displaces on the reverse side, given the reverse
 * values `target` holds: nothing when it links to the record already (`alreadyLinked`) or when the
 * reverse side is multiselect; a single-valued reverse side pointing elsewhere gives that value up,
 * and the record it pointed to (`unlinkFrom`) loses its forward link to `target`, so no half-link
 * remains.
 */
export function displacedReverseLinks(
  held: readonly StoredValueRow[],
  recordId: string,
  reverseIsMultiselect: boolean,
): { alreadyLinked: boolean; displaced: Array<{ row: StoredValueRow; unlinkFrom: string | null }> } {
  if (held.some((row) => row.ref === recordId)) return { alreadyLinked: true, displaced: [] };
  if (reverseIsMultiselect) return { alreadyLinked: false, displaced: [] };
  return { alreadyLinked: false, displaced: held.map((row) => ({ row, unlinkFrom: row.ref && row.ref !== recordId ? row.ref : null })) };
}
