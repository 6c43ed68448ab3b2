import { Injectable } from '@nestjs/common';
import { FileRepository } from '../infrastructure/file.repository';

/**
 * What other contexts may do with files. A record merge (issue 32, part 3) moves the files and
 * folders of both originals to the new record, keeping their ids, inside its own transaction.
 */
@Injectable()
export class FileDirectory {
  constructor(private readonly files: FileRepository) {}

  /** Re-points every entry of `fromRecordIds` at the record `to`; answers how many moved. Call it inside the caller's transaction. */
  moveToRecord(workspaceId: string, fromRecordIds: readonly string[], to: { objectId: string; recordId: string }): Promise<number> {
    return this.files.moveToRecord(workspaceId, fromRecordIds, to);
  }
}
