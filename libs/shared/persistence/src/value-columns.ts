/**
 * How record values are stored: one row per value in `record_values`, its comparable part in the
 * typed column of its attribute type. A storage contract of the tables the record engine writes
 * and the SQL endpoint reads, kept out of every context's front door; the schema owns the types
 * themselves (a type missing here fails to compile where PRIMARY_COLUMN is indexed by one).
 */
export type ValueColumn = 'value_text' | 'value_number' | 'value_bool' | 'value_date' | 'value_timestamp' | 'value_ref';

/** The typed column a type's equality, ranges and sorts run on (each has a partial index). */
export const PRIMARY_COLUMN = {
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
} as const satisfies Readonly<Record<string, ValueColumn>>;

export const COLUMN_CAST: Readonly<Record<ValueColumn, string>> = {
  value_text: 'text',
  value_number: 'numeric',
  value_bool: 'boolean',
  value_date: 'date',
  value_timestamp: 'timestamptz',
  value_ref: 'uuid',
};
