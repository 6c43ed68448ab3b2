import { Injectable } from '@nestjs/common';
import { FileRepository } from '../infrastructure/file.repository';

/**
 * Deletes the files and folders of records the record engine is deleting, in its deleting
 * transaction (registered under RECORD_DELETION_LISTENERS by the composition root, whose
 * `RecordDeletionListener` this matches by shape; see record-places.ts). Their bytes go with them:
 * PostgreSQL chunks cascade, S3 objects are recorded for removal in the same transaction.
 * The reference's webhook catalogue has no file events, so none are recorded.
 */
@Injectable()
export class DeleteRecordFilesListener {
  constructor(private readonly files: FileRepository) {}

  async recordsDeleting(workspaceId: string, container: { readonly kind: string }, recordIds: readonly string[]): Promise<void> {
    // Files hang off object records only.
    if (container.kind !== 'object') return;
    const keys = await this.files.deleteOfRecords(workspaceId, recordIds);
    await this.files.recordDiscarded(workspaceId, keys);
  }
}
