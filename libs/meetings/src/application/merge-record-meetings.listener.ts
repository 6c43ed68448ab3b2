import { Injectable } from '@nestjs/common';
import type { RecordMerge, RecordMergeListener } from '@workbase/records';
import { MeetingRepository } from '../infrastructure/meeting.repository';

/**
 * Links the meetings (and so their call recordings) linked to either of two merged records to the new record instead, and re-points participants who were one of them. Runs in the merge's transaction (registered under
 * RECORD_MERGE_LISTENERS by the composition root), before the originals are removed.
 */
@Injectable()
export class MergeRecordMeetingsListener implements RecordMergeListener {
  constructor(private readonly repository: MeetingRepository) {}

  async recordsMerged(merge: RecordMerge): Promise<void> {
    await this.repository.relinkRecords(merge.workspaceId, merge.originals, merge.newRecordId);
  }
}
