import { Injectable } from '@nestjs/common';
import type { RecordMerge, RecordMergeListener } from '@workbase/records';
import { CommentRepository } from '../infrastructure/comment.repository';

/**
 * Moves the comment threads of two merged records (and of their entries, which move too) to the new record. Runs in the merge's transaction (registered under
 * RECORD_MERGE_LISTENERS by the composition root), before the originals are removed.
 */
@Injectable()
export class MergeRecordCommentsListener implements RecordMergeListener {
  constructor(private readonly repository: CommentRepository) {}

  async recordsMerged(merge: RecordMerge): Promise<void> {
    await this.repository.moveThreadsToRecord(merge.workspaceId, merge.originals, merge.newRecordId);
  }
}
