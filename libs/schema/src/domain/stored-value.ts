import type { Actor } from '@workbase/shared/kernel';

/**
 * One value in its storage form: the typed columns that filters and sorts use, the JSON of
 * composite types, and `key`, its identity (equal keys are the same value: writing it again
 * changes nothing; a unique attribute's keys are unique across records).
 */
export interface StoredValue {
  readonly key: string;
  readonly text?: string | null;
  readonly number?: string | null;
  readonly bool?: boolean | null;
  readonly date?: string | null;
  readonly timestamp?: string | null;
  readonly ref?: string | null;
  readonly refType?: string | null;
  readonly json?: Record<string, unknown> | null;
}

/** A stored value as read back, with its history envelope. */
export interface StoredValueRow extends StoredValue {
  readonly id: string;
  readonly attributeId: string;
  readonly activeFrom: Date;
  readonly activeUntil: Date | null;
  readonly createdBy: Actor;
}
