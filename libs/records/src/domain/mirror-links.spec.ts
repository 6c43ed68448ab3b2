import type { StoredValue, StoredValueRow } from '@workbase/schema';
import { displacedReverseLinks, mirroredLinks } from './mirror-links';

const link = (ref: string): StoredValue => ({ key: ref, ref });
const held = (ref: string | null): StoredValueRow => ({ key: ref ?? '', ref, id: `row-${ref}`, attributeId: 'company', activeFrom: new Date(), activeUntil: null, createdBy: { type: 'system', id: null } });

describe('mirroredLinks', () => {
  it('links the records a write opens and unlinks the ones it closes', () => {
    expect(mirroredLinks({ relationshipAttributeId: 'reverse' }, { close: [held('old')], open: [link('new-1'), link('new-2')] })).toEqual({ linked: ['new-1', 'new-2'], unlinked: ['old'] });
  });

  it('mirrors nothing without a paired reverse attribute', () => {
    expect(mirroredLinks({ relationshipAttributeId: null }, { close: [held('old')], open: [link('new')] })).toEqual({ linked: [], unlinked: [] });
  });
});

describe('displacedReverseLinks', () => {
  it('displaces nothing when the target links to the record already', () => {
    expect(displacedReverseLinks([held('me')], 'me', false)).toEqual({ alreadyLinked: true, displaced: [] });
  });

  it('adds beside what a multiselect reverse side holds', () => {
    expect(displacedReverseLinks([held('other')], 'me', true)).toEqual({ alreadyLinked: false, displaced: [] });
  });

  it('moves a single-valued reverse link, unlinking the record it pointed to', () => {
    const other = held('other');
    expect(displacedReverseLinks([other], 'me', false)).toEqual({ alreadyLinked: false, displaced: [{ row: other, unlinkFrom: 'other' }] });
  });

  it('closes a reverse value without a record to unlink', () => {
    const dangling = held(null);
    expect(displacedReverseLinks([dangling], 'me', false)).toEqual({ alreadyLinked: false, displaced: [{ row: dangling, unlinkFrom: null }] });
  });
});
