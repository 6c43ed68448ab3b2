import type { AttributeType } from '../domain/attribute-type';
import type { StoredValue } from '../domain/stored-value';

export type ValueColumn = 'value_text' | 'value_number' | 'value_bool' | 'value_date' | 'value_timestamp' | 'value_ref';

/** The typed column a type's equality, ranges and sorts run on (each has a partial index). */
export const PRIMARY_COLUMN: Record<AttributeType, ValueColumn> = {
  text: 'value_text',
  'email-address': 'value_text',
  domain: 'value_text',
  'phone-number': 'value_text',
  'personal-name': 'value_text',
  location: 'value_text',
  number: 'value_number',
  currency: 'value_number',
  rating: 'value_number',
  checkbox: 'value_bool',
  date: 'value_date',
  timestamp: 'value_timestamp',
  interaction: 'value_timestamp',
  select: 'value_ref',
  status: 'value_ref',
  'record-reference': 'value_ref',
  'actor-reference': 'value_ref',
};

export const COLUMN_CAST: Record<ValueColumn, string> = {
  value_text: 'text',
  value_number: 'numeric',
  value_bool: 'boolean',
  value_date: 'date',
  value_timestamp: 'timestamptz',
  value_ref: 'uuid',
};

/** The parameter that compares equal to a stored value in its type's primary column. */
export function primaryParameter(type: AttributeType, value: StoredValue): unknown {
  switch (PRIMARY_COLUMN[type]) {
    case 'value_number':
      return value.number;
    case 'value_bool':
      return value.bool;
    case 'value_date':
      return value.date;
    case 'value_timestamp':
      return value.timestamp;
    case 'value_ref':
      return value.ref;
    default:
      return value.text;
  }
}
