import { Injectable } from '@nestjs/common';
import type { RecordMerge, RecordMergeListener } from '@workbase/records';
import { NoteRepository } from '../infrastructure/note.repository';

/**
 * Moves the notes of two merged records to the new record (their ids, content and `created_at` stay; no note event: the notes did not change). Runs in the merge's transaction (registered under
 * RECORD_MERGE_LISTENERS by the composition root), before the originals are removed.
 */
@Injectable()
export class MergeRecordNotesListener implements RecordMergeListener {
  constructor(private readonly repository: NoteRepository) {}

  async recordsMerged(merge: RecordMerge): Promise<void> {
    await this.repository.moveToRecord(merge.workspaceId, merge.originals, merge.newRecordId);
  }
}
