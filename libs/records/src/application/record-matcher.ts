import { Injectable } from '@nestjs/common';
import { CODECS, isPlainObject, NO_WRITE_LOOKUPS, invalidValue, valueNotFound, AttributeDirectory, type ObjectDefinition } from '@workbase/schema';
import { RecordRepository } from '../infrastructure/record.repository';

/** Records linked per value with `if_multiple_matches: "match_all"`. */
export const MATCH_ALL_LIMIT = 50;

/** Finds the records a record-reference write designates by value. */
@Injectable()
export class RecordMatcher {
  constructor(
    private readonly attributes: AttributeDirectory,
    private readonly store: RecordRepository,
  ) {}

  /** `{target_object, <unique attribute>: value(s)}`: every value must match, and all the same record. */
  async matchUniqueValue(workspaceId: string, slug: string, target: ObjectDefinition, attributeKey: string, raw: unknown): Promise<string[]> {
    const attribute = await this.attributes.find(workspaceId, target.id, attributeKey);
    if (!attribute) throw invalidValue(slug, `object "${target.apiSlug}" has no attribute "${attributeKey}" to match on`);
    if (!attribute.isUnique) {
      throw invalidValue(slug, `attribute "${attribute.slug}" of "${target.apiSlug}" is not unique; match with target_record_reference instead`);
    }
    const items = Array.isArray(raw) ? raw : [raw];
    if (items.length === 0) throw invalidValue(slug, `no value given to match on "${attribute.slug}"`);
    const parsed = (await Promise.all(items.map((item) => CODECS[attribute.type].parse(item, attribute, NO_WRITE_LOOKUPS)))).flat();
    const matches = await this.store.findByUniqueKeys(workspaceId, attribute.id, parsed.map((value) => value.key));
    const byKey = new Map(matches.map((match) => [match.key, match.recordId]));
    for (const value of parsed) {
      if (!byKey.has(value.key)) throw valueNotFound(slug, `no ${target.apiSlug} record matches ${attribute.slug} "${value.key}".`);
    }
    const recordIds = [...new Set(parsed.map((value) => byKey.get(value.key)!))];
    if (recordIds.length > 1) throw invalidValue(slug, `the values of "${attribute.slug}" match different ${target.apiSlug} records`);
    return recordIds;
  }

  /**
   * `{target_object, target_record_reference: {attribute, value, if_multiple_matches?, if_no_matches?}}`:
   * matches the current values of any attribute; several matches are an error unless
   * `if_multiple_matches` is "match_all" (up to 50 records).
   */
  async matchReference(workspaceId: string, slug: string, target: ObjectDefinition, reference: Record<string, unknown>): Promise<string[]> {
    const { attribute: attributeKey, value, if_multiple_matches: ifMultiple = 'error', if_no_matches: ifNone = 'error' } = reference;
    const extra = Object.keys(reference).filter((key) => !['attribute', 'value', 'if_multiple_matches', 'if_no_matches'].includes(key));
    if (extra.length > 0) throw invalidValue(slug, `unknown target_record_reference keys: ${extra.join(', ')}`);
    if (typeof attributeKey !== 'string') throw invalidValue(slug, 'target_record_reference.attribute must be an attribute slug or id');
    if (ifMultiple !== 'error' && ifMultiple !== 'match_all') throw invalidValue(slug, 'if_multiple_matches must be "error" or "match_all"');
    if (ifNone !== 'error' && ifNone !== 'skip') throw invalidValue(slug, 'if_no_matches must be "error" or "skip"');
    if (value === undefined || Array.isArray(value) || (isPlainObject(value) && Object.keys(value).length === 0)) {
      throw invalidValue(slug, 'target_record_reference.value must be one value');
    }
    const attribute = await this.attributes.find(workspaceId, target.id, attributeKey);
    if (!attribute) throw invalidValue(slug, `object "${target.apiSlug}" has no attribute "${attributeKey}" to match on`);
    if (attribute.type === 'record-reference' || attribute.type === 'actor-reference' || attribute.type === 'select' || attribute.type === 'status') {
      throw invalidValue(slug, `cannot match on ${attribute.type} attribute "${attribute.slug}"`);
    }
    const [parsed] = await CODECS[attribute.type].parse(value, attribute, NO_WRITE_LOOKUPS);
    const rows = await this.store.findByCurrentValue(workspaceId, target.id, attribute, parsed, MATCH_ALL_LIMIT + 1);
    const shown = typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
    if (rows.length === 0) {
      if (ifNone === 'skip') return [];
      throw valueNotFound(slug, `no ${target.apiSlug} record matches ${attribute.slug} "${shown}".`);
    }
    if (rows.length > 1 && ifMultiple !== 'match_all') {
      throw invalidValue(slug, `${attribute.slug} "${shown}" matches several ${target.apiSlug} records; set if_multiple_matches to "match_all" to link them all`);
    }
    if (rows.length > MATCH_ALL_LIMIT) {
      throw invalidValue(slug, `${attribute.slug} "${shown}" matches more than ${MATCH_ALL_LIMIT} ${target.apiSlug} records; match_all links at most ${MATCH_ALL_LIMIT}`);
    }
    return rows;
  }
}
