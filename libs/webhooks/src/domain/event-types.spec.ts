import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ACTIVITY_EVENT_TYPES, filterFieldsFor, isWebhookEventType, WEBHOOK_EVENT_TYPE_NAMES } from './event-types';

const LIBS = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.spec.ts') ? [full] : [];
  });
}

describe('webhook event type catalogue', () => {
  it('holds the 27 event types of the reference spec and the seven activity events', () => {
    expect(WEBHOOK_EVENT_TYPE_NAMES).toHaveLength(34);
    expect([...ACTIVITY_EVENT_TYPES].sort()).toEqual([
      'activity-attribute.created',
      'activity-attribute.updated',
      'activity-record.created',
      'activity-record.deleted',
      'activity.created',
      'activity.deleted',
      'activity.updated',
    ]);
  });

  it('names every event type that a context records in the outbox', () => {
    // Files that record events or name them for the outbox; the event names are string literals there.
    const recorded = new Set<string>();
    for (const context of readdirSync(LIBS).filter((name) => name !== 'webhooks' && name !== 'shared')) {
      for (const file of sourceFiles(path.join(LIBS, context, 'src'))) {
        const text = readFileSync(file, 'utf8');
        if (!/outbox|DomainEvent|_EVENTS\b/.test(text)) continue;
        for (const match of text.matchAll(/'([a-z-]+\.(?:created|updated|deleted|merged|resolved|unresolved))'/g)) recorded.add(match[1]);
      }
    }
    expect(recorded.size).toBeGreaterThanOrEqual(20);
    expect([...recorded].filter((name) => !isWebhookEventType(name))).toEqual([]);
  });

  it('offers the spec filter fields: the activity ones, and parent_object_id on notes but not on note content', () => {
    for (const type of ACTIVITY_EVENT_TYPES) {
      expect(filterFieldsFor(type)).toEqual(expect.arrayContaining(['api_slug', 'id.workspace_id', 'id.record_id', 'id.attribute_id', 'actor.type', 'actor.id']));
    }
    expect(filterFieldsFor('note.created')).toContain('parent_object_id');
    expect(filterFieldsFor('note-content.updated')).not.toContain('parent_object_id');
  });
});
