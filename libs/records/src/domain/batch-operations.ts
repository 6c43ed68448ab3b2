import { isPlainObject } from '@workbase/schema';
import { NotFoundError, ValidationError } from '@workbase/shared/kernel';

/** At most this many operations in one batch request. */
export const BATCH_MAX_OPERATIONS = 1000;

/** The values of a write as the single endpoints take them (`data.values`, or `data.entry_values` for entries). */
export type BatchValues = Record<string, unknown>;

/**
 * One operation of a batch, as the single endpoint it stands for would take it: `create` (POST),
 * `assert` (PUT with `matching_attribute`, or by parent for entries), `update` (PATCH: multiselect
 * values are appended) and `delete` (DELETE).
 */
export type BatchOperation =
  | { readonly op: 'create'; readonly values: BatchValues; readonly parent?: EntryParent }
  | { readonly op: 'assert'; readonly matchingAttribute: string | null; readonly values: BatchValues; readonly parent?: EntryParent }
  | { readonly op: 'update'; readonly id: string; readonly values: BatchValues }
  | { readonly op: 'delete'; readonly id: string };

/** The record a list entry is about (`data.parent_record_id` and `data.parent_object`). */
export interface EntryParent {
  readonly recordId: string;
  readonly object: string;
}

/** What the batch writes: records of an object (`values`, `record_id`) or entries of a list (`entry_values`, `entry_id`). */
export type BatchTarget = 'records' | 'entries';

const OPS = ['create', 'assert', 'update', 'delete'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads operation `index` of a batch, refusing a malformed one as its single endpoint would
 * (400 naming the field, or 404 for an id that cannot be a record's) — an error of that item only.
 */
export function parseBatchOperation(raw: unknown, index: number, target: BatchTarget): BatchOperation {
  const at = `operations[${index}]`;
  if (!isPlainObject(raw)) throw new ValidationError(`${at} must be an object.`);
  const op = raw.op as BatchOperation['op'];
  if (typeof op !== 'string' || !OPS.includes(op)) throw new ValidationError(`${at}.op must be one of ${OPS.join(', ')}.`);
  const idKey = target === 'records' ? 'record_id' : 'entry_id';
  const valuesKey = target === 'records' ? 'values' : 'entry_values';
  const id = (): string => {
    const given = raw[idKey];
    if (typeof given !== 'string' || given.length === 0) throw new ValidationError(`${at}.${idKey} is required for ${op}.`);
    if (!UUID.test(given)) throw new NotFoundError(`${target === 'records' ? 'Record' : 'Entry'} not found: ${at}.${idKey} must be a UUID.`);
    return given.toLowerCase();
  };
  if (op === 'delete') return { op, id: id() };
  const data = raw.data;
  if (!isPlainObject(data)) throw new ValidationError(`${at}.data must be an object.`);
  const values = data[valuesKey] ?? (target === 'entries' && op !== 'update' ? {} : undefined);
  if (!isPlainObject(values)) throw new ValidationError(`${at}.data.${valuesKey} must be an object.`);
  if (op === 'update') return { op, id: id(), values };
  const parent = target === 'entries' ? entryParent(data, at) : undefined;
  if (op === 'create') return { op, values, parent };
  const matching = raw.matching_attribute;
  if (target === 'records' && (typeof matching !== 'string' || matching.length === 0)) throw new ValidationError(`${at}.matching_attribute is required for assert.`);
  if (matching !== undefined && typeof matching !== 'string') throw new ValidationError(`${at}.matching_attribute must be a string.`);
  return { op, matchingAttribute: typeof matching === 'string' ? matching : null, values, parent };
}

function entryParent(data: Record<string, unknown>, at: string): EntryParent {
  const recordId = data.parent_record_id;
  const object = data.parent_object;
  if (typeof recordId !== 'string' || !UUID.test(recordId)) throw new ValidationError(`${at}.data.parent_record_id must be a UUID.`);
  if (typeof object !== 'string' || object.length === 0) throw new ValidationError(`${at}.data.parent_object is required.`);
  return { recordId: recordId.toLowerCase(), object };
}
