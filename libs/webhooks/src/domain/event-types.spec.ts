import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EVENT_CATALOGUE, EVENT_TYPES } from '@workbase/shared/kernel';
import { ACTIVITY_EVENT_TYPES, filterFieldsFor, isWebhookEventType, WEBHOOK_EVENT_TYPE_NAMES } from './event-types';
import { parseSubscriptions } from './webhook';

/** The rows of the event-type table of libs/webhooks/README.md: type, id keys, extra fields. */
function documentedEventTypes(): Map<string, { idKeys: string[]; fields: string[] }> {
  const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
  const names = (cell: string) => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
  const rows = new Map<string, { idKeys: string[]; fields: string[] }>();
  for (const match of readme.matchAll(/^\| `([a-z.-]+)` \| ([^|]*) \| ([^|]*) \|$/gm)) rows.set(match[1], { idKeys: names(match[2]), fields: names(match[3]) });
  return rows;
}

describe('webhook event type catalogue', () => {
  it('delivers the seven activity events as the activity families', () => {
    expect(ACTIVITY_EVENT_TYPES).toEqual(EVENT_TYPES.filter((type) => type.startsWith('activity')));
    expect(ACTIVITY_EVENT_TYPES).toHaveLength(7);
  });

  it('accepts in subscriptions exactly the event types of the kernel catalogue', () => {
    expect(WEBHOOK_EVENT_TYPE_NAMES).toEqual(EVENT_TYPES);
    const accepted = parseSubscriptions(EVENT_TYPES.map((event_type) => ({ event_type, filter: null })));
    expect(accepted.map((s) => s.event_type)).toEqual(EVENT_TYPES);
    for (const other of ['record.archived', 'activity-record.updated', 'RECORD.CREATED', 'record.created ']) {
      expect(isWebhookEventType(other)).toBe(false);
      expect(() => parseSubscriptions([{ event_type: other, filter: null }])).toThrow(/data\.subscriptions\[0\]\.event_type .* is not a known event type/);
    }
  });

  it('documents in the README every catalogued event type with its id keys and extra fields, and nothing else', () => {
    const documented = documentedEventTypes();
    expect([...documented.keys()].sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      expect({ type, ...documented.get(type) }).toEqual({ type, idKeys: [...EVENT_CATALOGUE[type].idKeys], fields: [...EVENT_CATALOGUE[type].payloadFields] });
    }
  });

  it('offers the spec filter fields: the activity ones, and parent_object_id on notes but not on note content', () => {
    for (const type of ACTIVITY_EVENT_TYPES) {
      expect(filterFieldsFor(type)).toEqual(expect.arrayContaining(['api_slug', 'id.workspace_id', 'id.record_id', 'id.attribute_id', 'actor.type', 'actor.id']));
    }
    expect(filterFieldsFor('note.created')).toContain('parent_object_id');
    expect(filterFieldsFor('note-content.updated')).not.toContain('parent_object_id');
  });
});
