import { CODECS, type AttributeDescriptor, type WriteLookups } from './codecs';
import type { StoredValue } from './stored-value';
import { invalidValue } from './value-error';

/**
 * Parses what is written to one attribute (a value, an array of values, or null) into stored values
 * with the attribute's codec: the single rule for record writes and for static default values.
 */
export async function parseAttributeValues(attribute: AttributeDescriptor, raw: unknown, lookups: WriteLookups): Promise<StoredValue[]> {
  if (attribute.type === 'currency' && (raw === null || (Array.isArray(raw) && raw.length === 0))) {
    // No nulls: an empty list would clear the value just as null would.
    throw invalidValue(attribute.slug, 'currency attributes do not accept null or an empty list');
  }
  const items = raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (!attribute.isMultiselect && items.length > 1) {
    throw invalidValue(attribute.slug, `this attribute holds a single value, but ${items.length} were given`);
  }
  const codec = CODECS[attribute.type];
  const values: StoredValue[] = [];
  for (const item of items) values.push(...(await codec.parse(item, attribute, lookups)));
  if (attribute.type === 'record-reference') {
    const seen = new Set<string>();
    for (const value of values) {
      if (seen.has(value.key)) throw invalidValue(attribute.slug, `record ${value.key} is referenced more than once`);
      seen.add(value.key);
    }
  }
  if (!attribute.isMultiselect && values.length > 1) {
    throw invalidValue(attribute.slug, `this attribute holds a single value, but the reference matched ${values.length} records`);
  }
  return values;
}
