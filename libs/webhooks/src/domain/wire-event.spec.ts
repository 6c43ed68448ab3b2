import { wireEvent } from './wire-event';

describe('wire event', () => {
  it('puts workspace_id first and the family keys in documented order, whatever order JSONB returned', () => {
    const wire = wireEvent({
      event_type: 'record.updated',
      entity_id: { record_id: 'r', object_id: 'o', attribute_id: 'a', workspace_id: 'w' },
      actor: { id: 'm', type: 'workspace-member' },
      payload: {},
    });
    expect(JSON.stringify(wire)).toBe(
      '{"event_type":"record.updated","id":{"workspace_id":"w","object_id":"o","record_id":"r","attribute_id":"a"},"actor":{"type":"workspace-member","id":"m"}}',
    );
  });

  it('adds payload fields at the top level without letting them override event_type, id or actor', () => {
    const wire = wireEvent({
      event_type: 'note.created',
      entity_id: { note_id: 'n', workspace_id: 'w' },
      actor: { type: 'system' },
      payload: { parent_record_id: 'pr', parent_object_id: 'po', event_type: 'forged', id: 'forged' },
    });
    expect(wire).toEqual({ event_type: 'note.created', id: { workspace_id: 'w', note_id: 'n' }, actor: { type: 'system', id: null }, parent_object_id: 'po', parent_record_id: 'pr' });
    expect(Object.keys(wire)).toEqual(['event_type', 'id', 'actor', 'parent_object_id', 'parent_record_id']);
  });
});
