import { type Attribute, isRecordSystemAttribute } from '@workbase/schema';
import { DomainError } from '@workbase/shared/kernel';

/**
 * The required-value rule: a created record needs a value of every required attribute (live,
 * not set by the system); an update may leave one alone but cannot empty it. `written`: how many
 * values the write gives each attribute it names (by attribute id), defaults applied.
 */
export function assertRequiredValues(attributes: readonly Attribute[], written: ReadonlyMap<string, number>, write: 'create' | 'update'): void {
  for (const attribute of attributes) {
    if (!attribute.isRequired || attribute.isArchived || isRecordSystemAttribute(attribute)) continue;
    const count = written.get(attribute.id);
    if (write === 'create' ? !count : count === 0) {
      throw new DomainError('missing_value', `Required attribute "${attribute.slug}" needs a value.`, { attribute: attribute.slug });
    }
  }
}
