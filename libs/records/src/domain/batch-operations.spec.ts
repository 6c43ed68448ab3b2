import { DomainError } from '@workbase/shared/kernel';
import { parseBatchOperation } from './batch-operations';

const ID = '0b6f6c2e-4f3a-4d7e-9a51-3f7d2a9c1e10';

describe('parseBatchOperation', () => {
  it('reads each operation of records as its single endpoint takes it', () => {
    expect(parseBatchOperation({ op: 'create', data: { values: { name: 'Ada' } } }, 0, 'records')).toEqual({ op: 'create', values: { name: 'Ada' }, parent: undefined });
    expect(parseBatchOperation({ op: 'assert', matching_attribute: 'email_addresses', data: { values: { email_addresses: ['a@x.test'] } } }, 1, 'records')).toEqual({
      op: 'assert',
      matchingAttribute: 'email_addresses',
      values: { email_addresses: ['a@x.test'] },
      parent: undefined,
    });
    expect(parseBatchOperation({ op: 'update', record_id: ID.toUpperCase(), data: { values: {} } }, 2, 'records')).toEqual({ op: 'update', id: ID, values: {} });
    expect(parseBatchOperation({ op: 'delete', record_id: ID }, 3, 'records')).toEqual({ op: 'delete', id: ID });
  });

  it('reads entries: their parent on create and assert, entry_values, entry_id', () => {
    expect(parseBatchOperation({ op: 'create', data: { parent_record_id: ID, parent_object: 'people' } }, 0, 'entries')).toEqual({
      op: 'create',
      values: {},
      parent: { recordId: ID, object: 'people' },
    });
    expect(parseBatchOperation({ op: 'assert', data: { parent_record_id: ID, parent_object: 'people', entry_values: { score: 1 } } }, 0, 'entries')).toMatchObject({
      op: 'assert',
      matchingAttribute: null,
      values: { score: 1 },
    });
    expect(parseBatchOperation({ op: 'update', entry_id: ID, data: { entry_values: { score: 2 } } }, 0, 'entries')).toEqual({ op: 'update', id: ID, values: { score: 2 } });
  });

  it.each([
    ['a string', 'create', 'operations[4] must be an object'],
    [{ op: 'upsert' }, 'op', 'operations[4].op'],
    [{}, 'op', 'operations[4].op'],
    [{ op: 'create' }, 'data', 'operations[4].data'],
    [{ op: 'create', data: { values: [] } }, 'values', 'operations[4].data.values'],
    [{ op: 'update', data: { values: {} } }, 'record_id', 'operations[4].record_id'],
    [{ op: 'assert', data: { values: {} } }, 'matching_attribute', 'operations[4].matching_attribute'],
    [{ op: 'assert', matching_attribute: 7, data: { values: {} } }, 'matching_attribute', 'operations[4].matching_attribute'],
  ])('refuses %j with a 400 naming %s', (raw, _field, message) => {
    const refusal = (() => {
      try {
        parseBatchOperation(raw, 4, 'records');
      } catch (error) {
        return error;
      }
      throw new Error('accepted');
    })() as DomainError;
    expect(refusal.code).toBe('validation_type');
    expect(refusal.message).toContain(message);
  });

  it('answers an id that cannot be a record as not found (404), as the single routes do', () => {
    expect(() => parseBatchOperation({ op: 'delete', record_id: 'nope' }, 0, 'records')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => parseBatchOperation({ op: 'update', entry_id: 'nope', data: { entry_values: {} } }, 0, 'entries')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('refuses an entry without its parent', () => {
    expect(() => parseBatchOperation({ op: 'create', data: { parent_object: 'people' } }, 2, 'entries')).toThrow('operations[2].data.parent_record_id');
    expect(() => parseBatchOperation({ op: 'assert', data: { parent_record_id: ID } }, 2, 'entries')).toThrow('operations[2].data.parent_object');
  });
});
