import type { Container } from '@workbase/schema';
import { NotFoundError } from '@workbase/shared/kernel';
import { recordNotFound } from './record-errors';

describe('recordNotFound', () => {
  it('names a record of an object and an entry of a list', () => {
    const people: Container = { kind: 'object', id: 'o', workspaceId: 'ws', slug: 'people' };
    const deals: Container = { kind: 'list', id: 'l', workspaceId: 'ws', slug: 'deals' };
    expect(recordNotFound(people, 'r-1')).toBeInstanceOf(NotFoundError);
    expect(recordNotFound(people, 'r-1').message).toBe('Record with ID "r-1" not found in object "people".');
    expect(recordNotFound(deals, 'e-1').message).toBe('Entry with ID "e-1" not found in list "deals".');
  });
});
