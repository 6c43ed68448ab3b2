import { Injectable } from '@nestjs/common';
import { FileRepository } from '../infrastructure/file.repository';

/**
 * Moves the files and folders of two merged records to the new record, keeping their ids, names
 * and bytes (signed URLs already handed out go on serving them). Runs in the merge's transaction,
 * registered under RECORD_MERGE_LISTENERS by the composition root, whose `RecordMergeListener` this
 * matches by shape (record-places.ts keeps files' names from records in one place).
 */
@Injectable()
export class MergeRecordFilesListener {
  constructor(private readonly files: FileRepository) {}

  async recordsMerged(merge: { readonly workspaceId: string; readonly objectId: string; readonly originals: readonly string[]; readonly newRecordId: string }): Promise<void> {
    await this.files.moveToRecord(merge.workspaceId, merge.originals, { objectId: merge.objectId, recordId: merge.newRecordId });
  }
}
