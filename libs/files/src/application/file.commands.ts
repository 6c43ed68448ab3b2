import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type Actor, ValidationError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { ConnectedProvider, FileEntry } from '../domain/file-entry';
import { FileRepository } from '../infrastructure/file.repository';
import { fileNotFound, parentFolderFor } from './file-checks';
import { FileHousekeeping } from './file-housekeeping';
import { type RecordPlace, RecordPlaces } from './record-places';

export interface EntryTarget {
  readonly workspaceId: string;
  readonly actor: Actor;
  readonly object: string;
  readonly recordId: string;
}

/** A file entry as it was made, with the object's slug for the answer. */
export interface PlacedEntry {
  readonly entry: FileEntry;
  readonly objectSlug: string;
}

/** Folders and connected entries are made, and any entry deleted, here; uploads are UploadFileUseCase. */
@Injectable()
export class FileCommands {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly files: FileRepository,
    private readonly places: RecordPlaces,
    private readonly housekeeping: FileHousekeeping,
  ) {}

  async createFolder(target: EntryTarget, folder: { name: string; parentFolderId: string | null }): Promise<PlacedEntry> {
    const place = await this.places.recordOf(target.workspaceId, target.object, target.recordId);
    return this.transactions.run(async () => {
      if (folder.parentFolderId) await parentFolderFor(this.files, target.workspaceId, place.recordId, folder.parentFolderId);
      const entry = await this.files.insertReady({
        ...onRecord(target, place),
        parentFolderId: folder.parentFolderId,
        fileType: 'folder',
        storageProvider: 'attio',
        name: folder.name,
        externalProviderFileId: null,
        microsoftDriveId: null,
      });
      return { entry, objectSlug: place.objectSlug };
    });
  }

  async createConnected(
    target: EntryTarget,
    connected: { fileType: 'connected-file' | 'connected-folder'; storageProvider: ConnectedProvider; externalProviderFileId: string; microsoftDriveId: string | null },
  ): Promise<PlacedEntry> {
    if (connected.microsoftDriveId !== null && connected.storageProvider !== 'microsoft-onedrive') {
      throw new ValidationError(`microsoft_drive_id: only a microsoft-onedrive entry has a drive id (storage_provider is ${connected.storageProvider}).`, { field: 'microsoft_drive_id' });
    }
    const place = await this.places.recordOf(target.workspaceId, target.object, target.recordId);
    const entry = await this.files.insertReady({
      ...onRecord(target, place),
      parentFolderId: null,
      fileType: connected.fileType,
      storageProvider: connected.storageProvider,
      name: null,
      externalProviderFileId: connected.externalProviderFileId,
      microsoftDriveId: connected.microsoftDriveId,
    });
    return { entry, objectSlug: place.objectSlug };
  }

  /** Deletes an entry and, for a folder, everything under it; the bytes of uploaded files go with them (at once in PostgreSQL, by the housekeeping in S3). */
  async delete(workspaceId: string, fileId: string): Promise<void> {
    const discarded = await this.transactions.run(async () => {
      if (!(await this.files.findById(workspaceId, fileId, { lock: true }))) throw fileNotFound(fileId);
      const keys = await this.files.deleteTree(workspaceId, fileId);
      await this.files.recordDiscarded(workspaceId, keys);
      return keys.length;
    });
    if (discarded > 0) this.housekeeping.discardSoon();
  }
}

function onRecord(target: EntryTarget, place: RecordPlace) {
  return { workspaceId: target.workspaceId, id: randomUUID(), objectId: place.objectId, recordId: place.recordId, createdBy: target.actor };
}
