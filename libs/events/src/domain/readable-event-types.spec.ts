import { SCOPE_RESOURCES } from '@workbase/shared/kernel';
import { isEveryEventType, readableEventTypes } from './readable-event-types';

describe('readableEventTypes', () => {
  it('gives a token the types of the areas it may read, every one with every read scope', () => {
    expect(readableEventTypes(new Set(['note:read']), null)).toEqual(['note.created', 'note-content.updated', 'note.updated', 'note.deleted']);
    expect(readableEventTypes(new Set(['task:read-write']), null)).toEqual(['task.created', 'task.updated', 'task.deleted']);
    expect(isEveryEventType(readableEventTypes(new Set(SCOPE_RESOURCES.map((resource) => `${resource}:read`)), null))).toBe(true);
  });

  it('keeps, of the types asked for, only the readable ones', () => {
    expect(readableEventTypes(new Set(['record_permission:read']), ['record.created', 'task.created'])).toEqual(['record.created']);
    expect(readableEventTypes(new Set(['webhook:read']), ['record.created'])).toEqual([]);
    expect(isEveryEventType(readableEventTypes(new Set(['record_permission:read']), null))).toBe(false);
  });
});
