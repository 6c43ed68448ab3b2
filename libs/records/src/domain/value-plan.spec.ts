import { planValues } from './value-plan';
import type { StoredValueRow } from '@workbase/schema';

const row = (key: string): StoredValueRow => ({
  key, id: key, attributeId: 'a', activeFrom: new Date(), activeUntil: null, createdBy: { type: 'system', id: null },
});

describe('planValues', () => {
  it('keeps a single value that is written again', () => {
    expect(planValues([row('x')], [{ key: 'x' }], false, 'overwrite')).toEqual({ close: [], open: [] });
  });

  it('closes and reopens a single value that changes', () => {
    const plan = planValues([row('x')], [{ key: 'y' }], false, 'append');
    expect(plan.close.map((v) => v.key)).toEqual(['x']);
    expect(plan.open.map((v) => v.key)).toEqual(['y']);
  });

  it('clears a single value with an empty write', () => {
    expect(planValues([row('x')], [], false, 'overwrite').close.map((v) => v.key)).toEqual(['x']);
  });

  it('appends only new multiselect values (PATCH)', () => {
    const plan = planValues([row('a'), row('b')], [{ key: 'b' }, { key: 'c' }, { key: 'c' }], true, 'append');
    expect(plan.close).toEqual([]);
    expect(plan.open.map((v) => v.key)).toEqual(['c']);
  });

  it('makes the multiselect list exact (PUT)', () => {
    const plan = planValues([row('a'), row('b')], [{ key: 'b' }, { key: 'c' }], true, 'overwrite');
    expect(plan.close.map((v) => v.key)).toEqual(['a']);
    expect(plan.open.map((v) => v.key)).toEqual(['c']);
  });
});
