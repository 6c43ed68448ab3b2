import { Injectable } from '@nestjs/common';
import type { RecordMerge, RecordMergeListener } from '@workbase/records';
import { TaskRepository } from '../infrastructure/task.repository';

/**
 * Links the tasks linked to either of two merged records to the new record instead (once). Runs in the merge's transaction (registered under
 * RECORD_MERGE_LISTENERS by the composition root), before the originals are removed.
 */
@Injectable()
export class MergeRecordTasksListener implements RecordMergeListener {
  constructor(private readonly repository: TaskRepository) {}

  async recordsMerged(merge: RecordMerge): Promise<void> {
    await this.repository.relinkRecords(merge.workspaceId, merge.originals, merge.newRecordId);
  }
}
