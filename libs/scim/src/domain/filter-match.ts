import type { CompareValue, Filter } from './filter';
import { scimBadRequest } from './scim-error';

/** An element by lower-case sub-attribute name: a Map, so that a filter naming `__proto__` or `constructor` finds nothing. */
export type Element = ReadonlyMap<string, string | boolean | null>;

/**
 * Evaluates a filter over one element of a multi-valued attribute (a group member, an email),
 * whose keys are lower-case sub-attribute names. Strings compare case-insensitively. A name the
 * element does not have is a 400 `invalidFilter`.
 */
export function matchesFilter(filter: Filter, element: Element): boolean {
  switch (filter.kind) {
    case 'and':
      return matchesFilter(filter.left, element) && matchesFilter(filter.right, element);
    case 'or':
      return matchesFilter(filter.left, element) || matchesFilter(filter.right, element);
    case 'not':
      return !matchesFilter(filter.filter, element);
    case 'valuePath':
      throw scimBadRequest('invalidFilter', 'Invalid filter: value filters cannot be nested.');
    default: {
      const key = filter.path.sub ?? filter.path.name;
      if (!element.has(key)) throw scimBadRequest('invalidFilter', `Invalid filter: "${filter.path.text}" is not a sub-attribute here.`);
      const actual = element.get(key) ?? null;
      if (filter.kind === 'present') return actual !== null && actual !== '';
      return compare(actual, filter.op, filter.value);
    }
  }
}

function compare(actual: string | boolean | null, op: string, expected: CompareValue): boolean {
  if (expected === null) return op === 'eq' ? actual === null : op === 'ne' ? actual !== null : false;
  if (actual === null) return op === 'ne';
  if (typeof actual === 'boolean') {
    const wanted = typeof expected === 'string' ? expected.toLowerCase() === 'true' : expected === true;
    if (op === 'eq') return actual === wanted;
    if (op === 'ne') return actual !== wanted;
    throw scimBadRequest('invalidFilter', `Invalid filter: "${op}" is not defined for booleans.`);
  }
  const a = actual.toLowerCase();
  const e = String(expected).toLowerCase();
  switch (op) {
    case 'eq':
      return a === e;
    case 'ne':
      return a !== e;
    case 'co':
      return a.includes(e);
    case 'sw':
      return a.startsWith(e);
    case 'ew':
      return a.endsWith(e);
    case 'gt':
      return a > e;
    case 'ge':
      return a >= e;
    case 'lt':
      return a < e;
    default:
      return a <= e;
  }
}
