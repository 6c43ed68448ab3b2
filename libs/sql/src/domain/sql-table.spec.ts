import { ATTRIBUTE_TYPES } from '@workbase/schema';
import { buildTable, columnTypeFor } from './sql-table';

/** The column of each attribute type is derived from the catalogue's storage map; what the catalogue does not define is an error. */
describe('SQL column types', () => {
  it('gives every attribute type of the catalogue its column type (multiselect: an array, or one jsonb array)', () => {
    const expected: Record<string, string> = {
      text: 'text', 'email-address': 'text', domain: 'text', 'phone-number': 'text', 'personal-name': 'text', select: 'text', status: 'text',
      number: 'numeric', currency: 'numeric', rating: 'numeric', checkbox: 'boolean', date: 'date', timestamp: 'timestamptz',
      'record-reference': 'uuid', 'actor-reference': 'jsonb', location: 'jsonb', interaction: 'jsonb',
    };
    expect(Object.fromEntries(ATTRIBUTE_TYPES.map((type) => [type, columnTypeFor(type, false)]))).toEqual(expected);
    expect(columnTypeFor('email-address', true)).toBe('text[]');
    expect(columnTypeFor('location', true)).toBe('jsonb');
  });

  it('refuses a type the catalogue does not define instead of showing it as text', () => {
    expect(() => columnTypeFor('hologram', false)).toThrow(/"hologram" is not one of libs\/schema ATTRIBUTE_TYPES/);
    expect(() => buildTable('objects', { id: 'c0', slug: 'deals', title: 'Deals' }, [{ id: 'a', slug: 'odd', type: 'hologram', isMultiselect: false }])).toThrow(/hologram/);
  });
});
