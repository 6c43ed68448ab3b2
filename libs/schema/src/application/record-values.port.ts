import type { Attribute } from '../domain/attribute';
import type { WriteLookups } from '../domain/codecs';
import type { Container } from '../domain/container';

/**
 * What the schema needs of the values records hold, without depending on the record engine
 * (records depend on the schema): the lookups a record write parses values with (a static
 * default is checked as a write would apply it), and the unique-value claims an attribute made or
 * no longer unique takes or drops. The record engine implements it; the composition root binds
 * it to RECORD_VALUES, as it binds RECORD_DELETION_LISTENERS.
 */
export interface RecordValues {
  writeLookups(workspaceId: string): WriteLookups;
  /** Claims the current values of an attribute made unique; `duplicates` (nothing claimed) when two records hold one value. */
  claimUniqueValues(attribute: Attribute): Promise<'claimed' | 'duplicates'>;
  /** Drops the claims of an attribute that is no longer unique. */
  releaseUniqueValues(attribute: Attribute): Promise<void>;
  /** Checks a saved view's filter and sorts as a record query of the container would (400 `filter_error` naming what is wrong). */
  checkQuery(container: Container, query: { readonly filter?: unknown; readonly sorts?: unknown }): Promise<void>;
}

export const RECORD_VALUES = Symbol('RECORD_VALUES');
