import { Inject, Injectable, Optional } from '@nestjs/common';
import { TRASH_BIN, type TrashBin } from '@workbase/shared/kernel';
import { FileRepository } from '../infrastructure/file.repository';

/**
 * Deletes the files and folders of records the record engine is deleting, in its deleting
 * transaction (registered under RECORD_DELETION_LISTENERS by the composition root, whose
 * `RecordDeletionListener` this matches by shape; see record-places.ts). Their bytes go with them:
 * PostgreSQL chunks cascade, S3 objects are recorded for removal in the same transaction.
 * With a trash bound (TRASH_BIN), the record's item keeps the file rows and their chunks, and the
 * S3 objects are recorded for removal only when the trash lets the item go.
 * The reference's webhook catalogue has no file events, so none are recorded.
 */
@Injectable()
export class DeleteRecordFilesListener {
  constructor(
    private readonly files: FileRepository,
    @Optional() @Inject(TRASH_BIN) private readonly trash: TrashBin | null = null,
  ) {}

  async recordsDeleting(workspaceId: string, container: { readonly kind: string }, recordIds: readonly string[]): Promise<void> {
    // Files hang off object records only.
    if (container.kind !== 'object') return;
    const keys = await this.files.deleteOfRecords(workspaceId, recordIds);
    if (!this.trash) await this.files.recordDiscarded(workspaceId, keys);
  }
}
