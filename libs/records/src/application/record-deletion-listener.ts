import type { Actor } from '@workbase/shared/kernel';
import type { Container } from '@workbase/schema';

/**
 * Work other contexts do when records are deleted (notes delete the record's notes and record
 * `note.deleted`), called by the record engine inside the deleting transaction, after the records
 * are locked and before their rows go, so that a listener still sees what hangs off them and a
 * failed delete takes its work back. The engine depends on no listener: the composition root
 * provides the list under this token (none: an empty list), as with WORKSPACE_INITIALIZERS.
 */
export interface RecordDeletionListener {
  recordsDeleting(workspaceId: string, container: Container, recordIds: readonly string[], actor: Actor): Promise<void>;
  /**
   * The list entries of a record being deleted, every list at once (a record is often in many
   * lists). Optional: without it, `recordsDeleting` is called once per list.
   */
  entriesDeleting?(workspaceId: string, lists: ReadonlyArray<{ readonly list: Container; readonly entryIds: readonly string[] }>, actor: Actor): Promise<void>;
}

export const RECORD_DELETION_LISTENERS = Symbol('RECORD_DELETION_LISTENERS');
