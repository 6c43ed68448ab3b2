import type { AttributeType } from './attribute-type';
import { stripDecimal } from './codecs/scalar.codecs';
import type { StoredValue } from './stored-value';

/** The identity of a stored value, as its codec computed it when the value was written. */
export function valueKey(type: AttributeType, value: StoredValue): string {
  switch (type) {
    case 'number':
    case 'currency':
    case 'rating':
      return value.number == null ? '' : stripDecimal(String(value.number));
    case 'checkbox':
      return String(value.bool);
    case 'date':
      return value.date ?? '';
    case 'timestamp':
      return String((value.json as { value?: string } | null)?.value ?? '');
    case 'select':
    case 'status':
    case 'record-reference':
    case 'actor-reference':
      return value.ref ?? '';
    case 'location': {
      const json = (value.json ?? {}) as Record<string, unknown>;
      return JSON.stringify(['line_1', 'line_2', 'line_3', 'line_4', 'locality', 'region', 'postcode', 'country_code', 'latitude', 'longitude'].map((k) => json[k] ?? null));
    }
    case 'personal-name': {
      const json = (value.json ?? {}) as Record<string, unknown>;
      return JSON.stringify([json.first_name, json.last_name, json.full_name]);
    }
    case 'interaction':
      return JSON.stringify(value.json);
    default:
      return value.text ?? '';
  }
}
