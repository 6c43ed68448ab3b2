import type { StoredValue, StoredValueRow } from '@workbase/schema';

/** How a write combines with what a multiselect attribute holds. */
export type WriteMode = 'create' | 'append' | 'overwrite';

export interface ValuePlan {
  readonly close: readonly StoredValueRow[];
  readonly open: readonly StoredValue[];
}

/**
 * The value history rule: an overwrite closes the current value and opens a new one; writing the
 * value a record already holds changes nothing. Multiselect appends keep what is there
 * (PATCH); overwrites make the given list exact (PUT, create).
 */
export function planValues(current: readonly StoredValueRow[], incoming: readonly StoredValue[], multiselect: boolean, mode: WriteMode): ValuePlan {
  const unique = dedupe(incoming);
  if (!multiselect) {
    const next = unique[unique.length - 1];
    if (!next) return { close: current, open: [] };
    if (current.length === 1 && current[0].key === next.key) return { close: [], open: [] };
    return { close: current, open: [next] };
  }
  const held = new Set(current.map((value) => value.key));
  const open = unique.filter((value) => !held.has(value.key));
  if (mode === 'append') return { close: [], open };
  const wanted = new Set(unique.map((value) => value.key));
  return { close: current.filter((value) => !wanted.has(value.key)), open };
}

function dedupe(values: readonly StoredValue[]): StoredValue[] {
  const seen = new Set<string>();
  return values.filter((value) => (seen.has(value.key) ? false : (seen.add(value.key), true)));
}
