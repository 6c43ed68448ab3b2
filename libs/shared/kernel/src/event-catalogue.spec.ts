import type { DomainEvent } from './domain-event';
import { EVENT_CATALOGUE, EVENT_READ_SCOPES, EVENT_TYPES, isEventType } from './event-catalogue';
import { isScope } from './scopes';

const actor = { type: 'system', id: null } as const;

describe('event catalogue', () => {
  it('holds the 27 event types of the reference spec and the seven activity events, each once', () => {
    expect(EVENT_TYPES).toHaveLength(34);
    expect(new Set(EVENT_TYPES).size).toBe(34);
    const activity = EVENT_TYPES.filter((type) => type.startsWith('activity'));
    expect(activity).toHaveLength(7);
    // The spec rules out activity-record.updated; DELETE of an activity exists, so activity.deleted does.
    expect(activity).not.toContain('activity-record.updated');
    expect(activity).toContain('activity.deleted');
    for (const type of EVENT_TYPES) expect(type).toMatch(/^[a-z]+(-[a-z]+)*\.(created|updated|deleted|merged|resolved|unresolved)$/);
  });

  it('keys every event by ids of its family, never by workspace_id or a field twice', () => {
    for (const type of EVENT_TYPES) {
      const { idKeys, payloadFields } = EVENT_CATALOGUE[type];
      expect(idKeys.length).toBeGreaterThan(0);
      expect(idKeys).not.toContain('workspace_id');
      expect(new Set(idKeys).size).toBe(idKeys.length);
      expect(new Set(payloadFields).size).toBe(payloadFields.length);
    }
    expect(EVENT_CATALOGUE['record.updated'].idKeys).toEqual(['object_id', 'record_id', 'attribute_id']);
    expect(EVENT_CATALOGUE['list-entry.updated'].idKeys).toEqual(['list_id', 'entry_id', 'attribute_id']);
    expect(EVENT_CATALOGUE['note.created'].payloadFields).toEqual(['parent_object_id', 'parent_record_id']);
    expect(EVENT_CATALOGUE['note-content.updated'].payloadFields).toEqual([]);
  });

  it('tells event type names from other strings', () => {
    expect(EVENT_TYPES.every(isEventType)).toBe(true);
    for (const other of ['record.archived', 'Record.created', 'record', '', 'toString', 'constructor', 42, null, undefined]) expect(isEventType(other)).toBe(false);
  });

  it('types each event by its catalogue entry (the compiler rejects what the comments say)', () => {
    const events: DomainEvent[] = [
      { eventType: 'record.updated', workspaceId: 'w', id: { workspace_id: 'w', object_id: 'o', record_id: 'r', attribute_id: 'a' }, actor },
      { eventType: 'note.created', workspaceId: 'w', id: { workspace_id: 'w', note_id: 'n' }, actor, payload: { parent_object_id: 'o', parent_record_id: 'r' } },
      { eventType: 'note-content.updated', workspaceId: 'w', id: { workspace_id: 'w', note_id: 'n' }, actor },
      { eventType: 'activity.created', workspaceId: 'w', id: { workspace_id: 'w', activity_id: 'x' }, actor, payload: { api_slug: 'calls' } },
      // @ts-expect-error an event type that is not in the catalogue
      { eventType: 'record.archived', workspaceId: 'w', id: { workspace_id: 'w', object_id: 'o', record_id: 'r' }, actor },
      // @ts-expect-error record.updated names the attribute that changed
      { eventType: 'record.updated', workspaceId: 'w', id: { workspace_id: 'w', object_id: 'o', record_id: 'r' }, actor },
      // @ts-expect-error note.* events carry their parent at the top level
      { eventType: 'note.deleted', workspaceId: 'w', id: { workspace_id: 'w', note_id: 'n' }, actor },
      // @ts-expect-error a task's id is a task_id
      { eventType: 'task.created', workspaceId: 'w', id: { workspace_id: 'w', note_id: 'n' }, actor },
    ];
    expect(events.every((event) => isEventType(event.eventType))).toBe(false);
  });

  it('gives every event type one read scope, of its own area', () => {
    expect(Object.keys(EVENT_READ_SCOPES).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const scope = EVENT_READ_SCOPES[type];
      expect({ type, scope, known: isScope(scope), read: scope.endsWith(':read') }).toEqual({ type, scope, known: true, read: true });
    }
    const areas: Array<[RegExp, string]> = [
      [/^record\./, 'record_permission:read'],
      [/^list-entry\./, 'list_entry:read'],
      [/^(list|list-attribute)\./, 'list_configuration:read'],
      [/^object-attribute\./, 'object_configuration:read'],
      [/^(note|note-content)\./, 'note:read'],
      [/^task\./, 'task:read'],
      [/^comment\./, 'comment:read'],
      [/^call-recording\./, 'call_recording:read'],
      [/^workspace-member\./, 'user_management:read'],
      [/^(activity|activity-attribute)\./, 'activity_configuration:read'],
      [/^activity-record\./, 'activity_record:read'],
    ];
    for (const type of EVENT_TYPES) {
      const area = areas.find(([pattern]) => pattern.test(type));
      expect({ type, scope: area?.[1] }).toEqual({ type, scope: EVENT_READ_SCOPES[type] });
    }
  });
});
