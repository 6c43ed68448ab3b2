import { type Attribute, type StoredValue, valueKey } from '@workbase/schema';

/** A current value of one of the two records being merged. */
export interface MergeInputValue extends StoredValue {
  readonly attributeId: string;
}

/** The two records a merge folds into a new one, and the new record's id. */
export interface MergeIds {
  readonly primaryId: string;
  readonly secondaryId: string;
  readonly newId: string;
}

/**
 * The values of the record a merge makes, per attribute in the attributes' order:
 * - single-valued: the primary's value where it has one, else the secondary's;
 * - multi-valued: the union, the primary's values first, each value once (by its key);
 * - a reference to either original is dropped before choosing: pointed at the new record it
 *   would name itself (a person who was their duplicate's manager is not their own manager), and
 *   left alone it would name a record the merge removes. So where the primary's only value named
 *   an original, the secondary's value fills in, as where the primary has none.
 * Values of attributes not listed (deleted meanwhile) are dropped.
 */
export function mergedValues(
  attributes: readonly Pick<Attribute, 'id' | 'type' | 'isMultiselect'>[],
  primary: readonly MergeInputValue[],
  secondary: readonly MergeInputValue[],
  ids: MergeIds,
): Array<{ attributeId: string; value: StoredValue }> {
  const originals = new Set([ids.primaryId, ids.secondaryId]);
  const namesAnOriginal = (value: MergeInputValue) => !!value.ref && originals.has(value.ref) && value.refType !== 'workspace-member';
  const merged: Array<{ attributeId: string; value: StoredValue }> = [];
  for (const attribute of attributes) {
    const ofAttribute = (values: readonly MergeInputValue[]) =>
      values
        .filter((value) => value.attributeId === attribute.id && !namesAnOriginal(value))
        .map(({ attributeId: _attributeId, ...stored }) => ({ ...stored, key: valueKey(attribute.type, stored) }));
    const fromPrimary = ofAttribute(primary);
    const fromSecondary = ofAttribute(secondary);
    const chosen = attribute.isMultiselect ? [...fromPrimary, ...fromSecondary] : fromPrimary.length > 0 ? fromPrimary.slice(-1) : fromSecondary.slice(-1);
    const seen = new Set<string>();
    for (const value of chosen) {
      if (seen.has(value.key)) continue;
      seen.add(value.key);
      merged.push({ attributeId: attribute.id, value });
    }
  }
  return merged;
}
