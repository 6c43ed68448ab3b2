import { ValidationError } from '@workbase/shared/kernel';
import { filterFieldsFor, type WebhookEventType } from './event-types';

export type FilterOperator = 'equals' | 'not_equals';

export interface FilterCondition {
  readonly field: string;
  readonly operator: FilterOperator;
  readonly value: string;
}

/** `null` passes everything; otherwise all (`$and`) or any (`$or`) of the conditions must hold. */
export type SubscriptionFilter = null | { readonly $or: readonly FilterCondition[] } | { readonly $and: readonly FilterCondition[] };

const MAX_CONDITIONS = 50;

/** Validates a filter as sent by a client; the error names the path at fault. */
export function parseSubscriptionFilter(raw: unknown, eventType: WebhookEventType, path: string): SubscriptionFilter {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError(`${path} must be null or an object with "$or" or "$and"`);
  const keys = Object.keys(raw);
  if (keys.length !== 1 || (keys[0] !== '$or' && keys[0] !== '$and')) {
    throw new ValidationError(`${path} must have exactly one key, "$or" or "$and" (got ${keys.map((k) => `"${k}"`).join(', ') || 'none'})`);
  }
  const combinator = keys[0] as '$or' | '$and';
  const list = (raw as Record<string, unknown>)[combinator];
  if (!Array.isArray(list) || list.length === 0) throw new ValidationError(`${path}.${combinator} must be a non-empty array of conditions`);
  if (list.length > MAX_CONDITIONS) throw new ValidationError(`${path}.${combinator} may hold at most ${MAX_CONDITIONS} conditions`);
  const allowed = filterFieldsFor(eventType);
  const conditions = list.map((item: unknown, i) => {
    const at = `${path}.${combinator}[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ValidationError(`${at} must be an object {field, operator, value}`);
    const { field, operator, value, ...rest } = item as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) throw new ValidationError(`${at} has unknown properties: ${extra.join(', ')}`);
    if (typeof field !== 'string' || !allowed.includes(field)) {
      throw new ValidationError(`${at}.field must be one of ${allowed.join(', ')} for ${eventType} (got ${JSON.stringify(field)})`);
    }
    if (operator !== 'equals' && operator !== 'not_equals') {
      throw new ValidationError(`${at}.operator must be "equals" or "not_equals" (got ${JSON.stringify(operator)})`);
    }
    if (typeof value !== 'string') throw new ValidationError(`${at}.value must be a string`);
    return { field, operator, value } as FilterCondition;
  });
  return combinator === '$or' ? { $or: conditions } : { $and: conditions };
}

/** True when the delivered event (`{event_type, id, actor, ...payload}`) passes the filter. */
export function filterMatches(filter: SubscriptionFilter, event: Readonly<Record<string, unknown>>): boolean {
  if (filter === null) return true;
  const test = (condition: FilterCondition) => {
    const actual = valueAt(event, condition.field);
    const equal = actual !== undefined && actual !== null && String(actual) === condition.value;
    return condition.operator === 'equals' ? equal : !equal;
  };
  return '$or' in filter ? filter.$or.some(test) : filter.$and.every(test);
}

function valueAt(event: Readonly<Record<string, unknown>>, field: string): unknown {
  let current: unknown = event;
  for (const part of field.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
