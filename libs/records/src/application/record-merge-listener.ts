import type { Actor } from '@workbase/shared/kernel';

/** What a merge folds together: the two originals of one object and the record made of them. */
export interface RecordMerge {
  readonly workspaceId: string;
  readonly objectId: string;
  /** The primary, then the secondary. */
  readonly originals: readonly [string, string];
  readonly newRecordId: string;
  readonly actor: Actor;
}

/**
 * Work other contexts do when two records are merged: what hangs off either original (notes,
 * tasks' linked records, comment threads, meetings' linked records and participants, files) is
 * re-pointed to the new record, keeping its own id. Called by the merge inside its transaction,
 * after the new record exists and before the originals go (their rows' foreign keys cascade, so
 * anything not moved by then would be deleted with them). The composition root provides the
 * list under this token, as it does RECORD_DELETION_LISTENERS.
 */
export interface RecordMergeListener {
  recordsMerged(merge: RecordMerge): Promise<void>;
}

export const RECORD_MERGE_LISTENERS = Symbol('RECORD_MERGE_LISTENERS');
