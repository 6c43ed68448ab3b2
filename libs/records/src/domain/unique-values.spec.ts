import type { StoredValue, StoredValueRow } from '@workbase/schema';
import { ConflictError } from '@workbase/shared/kernel';
import { uniqueClaims, uniquenessConflict } from './unique-values';

const value = (key: string): StoredValue => ({ key, text: key });
const row = (key: string): StoredValueRow => ({ ...value(key), id: `row-${key}`, attributeId: 'email', activeFrom: new Date(), activeUntil: null, createdBy: { type: 'system', id: null } });

describe('uniqueClaims', () => {
  it('releases what the plan closes and claims what it opens, in order, for a unique attribute', () => {
    expect(uniqueClaims({ isUnique: true }, { close: [row('a@x.com')], open: [value('b@x.com'), value('c@x.com')] })).toEqual({
      release: ['a@x.com'],
      claim: [value('b@x.com'), value('c@x.com')],
    });
  });

  it('claims nothing for an attribute that is not unique', () => {
    expect(uniqueClaims({ isUnique: false }, { close: [row('a')], open: [value('b')] })).toEqual({ release: [], claim: [] });
  });
});

describe('uniquenessConflict', () => {
  it('is a 409 uniqueness_conflict naming the attribute, the value and the holder', () => {
    const error = uniquenessConflict({ slug: 'email_addresses' }, 'a@x.com', 'record-2');
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.message).toBe('The value "a@x.com" of unique attribute "email_addresses" already belongs to record record-2.');
    expect(error).toMatchObject({ code: 'uniqueness_conflict', details: { attribute: 'email_addresses', conflicting_record_id: 'record-2' } });
  });
});
