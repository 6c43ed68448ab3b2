import { isUuid } from '@workbase/shared/kernel';
import { type AttributeType, canonicalNumber, parseDate, parseTimestamp } from '@workbase/schema';
import { filterError } from './filter-error';

export type Operator = '$eq' | '$in' | '$not_empty' | '$contains' | '$starts_with' | '$ends_with' | '$lt' | '$lte' | '$gt' | '$gte';
export const OPERATORS: readonly Operator[] = ['$eq', '$in', '$not_empty', '$contains', '$starts_with', '$ends_with', '$lt', '$lte', '$gt', '$gte'];

/** The operators of each type, as the reference API's filtering guide lists them. */
export const TYPE_OPERATORS: Record<AttributeType, readonly Operator[]> = {
  'actor-reference': ['$eq'],
  checkbox: ['$eq'],
  select: ['$eq'],
  status: ['$eq'],
  currency: ['$eq', '$lt', '$lte', '$gt', '$gte'],
  date: ['$eq', '$lt', '$lte', '$gt', '$gte'],
  number: ['$eq', '$lt', '$lte', '$gt', '$gte'],
  rating: ['$eq', '$lt', '$lte', '$gt', '$gte'],
  timestamp: ['$eq', '$lt', '$lte', '$gt', '$gte'],
  domain: ['$eq', '$not_empty', '$contains', '$starts_with', '$ends_with'],
  'personal-name': ['$eq', '$not_empty', '$contains', '$starts_with', '$ends_with'],
  'phone-number': ['$eq', '$not_empty', '$contains', '$starts_with', '$ends_with'],
  'email-address': ['$eq', '$contains', '$starts_with', '$ends_with'],
  location: ['$eq', '$contains', '$starts_with', '$ends_with'],
  interaction: ['$eq', '$not_empty', '$lt', '$lte', '$gt', '$gte'],
  'record-reference': ['$eq', '$in'],
  text: ['$eq', '$in', '$contains', '$starts_with', '$ends_with'],
};

/** How a property's SQL compares: the cast of its parameter and whether text compares case-insensitively. */
export type PropertyKind = 'text' | 'ci_text' | 'number' | 'bool' | 'date' | 'timestamp' | 'uuid' | 'option' | 'status' | 'object';

export interface PropertySpec {
  /** SQL expression over the value row alias. */
  readonly sql: (alias: string) => string;
  readonly kind: PropertyKind;
}

const json = (key: string, kind: PropertyKind = 'ci_text'): PropertySpec => ({ sql: (v) => `(${v}.value_json->>'${key}')`, kind });
const col = (column: string, kind: PropertyKind): PropertySpec => ({ sql: (v) => `${v}.${column}`, kind });

export interface TypeProperties {
  readonly default: string;
  readonly properties: Readonly<Record<string, PropertySpec>>;
}

/** Filterable (and sortable) properties of each type; the default one is what shorthand compares. */
export const TYPE_PROPERTIES: Record<AttributeType, TypeProperties> = {
  text: { default: 'value', properties: { value: col('value_text', 'text') } },
  number: { default: 'value', properties: { value: col('value_number', 'number') } },
  checkbox: { default: 'value', properties: { value: col('value_bool', 'bool') } },
  currency: { default: 'currency_value', properties: { currency_value: col('value_number', 'number') } },
  date: { default: 'value', properties: { value: col('value_date', 'date') } },
  timestamp: { default: 'value', properties: { value: col('value_timestamp', 'timestamp') } },
  rating: { default: 'value', properties: { value: col('value_number', 'number') } },
  status: { default: 'status', properties: { status: col('value_ref', 'status') } },
  select: { default: 'option', properties: { option: col('value_ref', 'option') } },
  'record-reference': {
    default: 'target_record_id',
    properties: { target_record_id: col('value_ref', 'uuid'), target_object: col('value_ref_type', 'object') },
  },
  'actor-reference': {
    default: 'referenced_actor_id',
    properties: { referenced_actor_id: col('value_ref', 'uuid'), referenced_actor_type: col('value_ref_type', 'text') },
  },
  'email-address': {
    default: 'email_address',
    properties: {
      email_address: col('value_text', 'ci_text'),
      original_email_address: json('original_email_address'),
      email_domain: json('email_domain'),
      email_root_domain: json('email_root_domain'),
      email_local_specifier: json('email_local_specifier'),
    },
  },
  domain: { default: 'domain', properties: { domain: col('value_text', 'ci_text'), root_domain: json('root_domain') } },
  'phone-number': {
    default: 'phone_number',
    properties: { phone_number: col('value_text', 'text'), original_phone_number: json('original_phone_number', 'text'), country_code: json('country_code') },
  },
  'personal-name': {
    default: 'full_name',
    properties: { full_name: col('value_text', 'ci_text'), first_name: json('first_name'), last_name: json('last_name') },
  },
  location: {
    default: 'locality',
    properties: Object.fromEntries(
      ['line_1', 'line_2', 'line_3', 'line_4', 'locality', 'region', 'postcode', 'country_code', 'latitude', 'longitude'].map((key) => [key, json(key)]),
    ),
  },
  interaction: {
    default: 'interacted_at',
    properties: { interacted_at: { sql: (v) => `((${v}.value_json->>'interacted_at')::timestamptz)`, kind: 'timestamp' }, interaction_type: json('interaction_type', 'text') },
  },
};

/** Converts a filter operand to the parameter of a property's comparison, or fails naming it. */
export function operand(kind: PropertyKind, value: unknown, where: string): unknown {
  switch (kind) {
    case 'number': {
      const n = canonicalNumber(value);
      if (n === null) throw filterError(`${where}: expected a number, got ${JSON.stringify(value)}`);
      return n;
    }
    case 'bool':
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      throw filterError(`${where}: expected true or false, got ${JSON.stringify(value)}`);
    case 'date': {
      const date = typeof value === 'string' ? parseDate(value) : null;
      if (!date) throw filterError(`${where}: expected a date such as "2024-05-17", got ${JSON.stringify(value)}`);
      return date;
    }
    case 'timestamp': {
      const stamp = typeof value === 'string' ? parseTimestamp(value) : null;
      if (!stamp) throw filterError(`${where}: expected an ISO 8601 timestamp, got ${JSON.stringify(value)}`);
      return stamp.micros;
    }
    case 'uuid':
      if (!isUuid(value)) throw filterError(`${where}: expected a UUID, got ${JSON.stringify(value)}`);
      return value;
    default:
      if (typeof value !== 'string' && typeof value !== 'number') throw filterError(`${where}: expected a string, got ${JSON.stringify(value)}`);
      return String(value);
  }
}

export const SQL_CAST: Record<PropertyKind, string> = {
  text: 'text',
  ci_text: 'text',
  number: 'numeric',
  bool: 'boolean',
  date: 'date',
  timestamp: 'timestamptz',
  uuid: 'uuid',
  option: 'text',
  status: 'text',
  object: 'text',
};
