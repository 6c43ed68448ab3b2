import { filterMatches, parseSubscriptionFilter } from './subscription-filter';

const event = { event_type: 'activity-record.created', id: { workspace_id: 'w', activity_id: 'a', record_id: 'r' }, actor: { type: 'system', id: null }, api_slug: 'calls' };

describe('subscription filter', () => {
  it('passes everything when null', () => {
    expect(filterMatches(parseSubscriptionFilter(null, 'activity-record.created', 'f'), event)).toBe(true);
  });

  it('evaluates $or and $and with equals / not_equals, a null actor id counting as not equal', () => {
    const parse = (raw: unknown) => parseSubscriptionFilter(raw, 'activity-record.created', 'f');
    const c = (field: string, operator: string, value: string) => ({ field, operator, value });
    expect(filterMatches(parse({ $or: [c('api_slug', 'equals', 'x'), c('id.record_id', 'equals', 'r')] }), event)).toBe(true);
    expect(filterMatches(parse({ $and: [c('api_slug', 'equals', 'calls'), c('actor.type', 'not_equals', 'system')] }), event)).toBe(false);
    expect(filterMatches(parse({ $and: [c('api_slug', 'equals', 'calls'), c('actor.id', 'not_equals', 'm')] }), event)).toBe(true);
    expect(filterMatches(parse({ $or: [c('actor.id', 'equals', 'null')] }), event)).toBe(false);
  });

  it('names the path at fault', () => {
    expect(() => parseSubscriptionFilter({ $or: [{ field: 'nope', operator: 'equals', value: 'x' }] }, 'note.created', 'data.subscriptions[2].filter')).toThrow(
      /data\.subscriptions\[2\]\.filter\.\$or\[0\]\.field/,
    );
  });
});
