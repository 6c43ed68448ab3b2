import { Injectable } from '@nestjs/common';
import { type Actor, NotFoundError } from '@workbase/shared/kernel';
import { pgError, TransactionRunner } from '@workbase/shared/persistence';
import type { FileEntry, FileType, StorageProvider } from '../domain/file-entry';

interface FileRow {
  id: string;
  object_id: string;
  record_id: string;
  parent_folder_id: string | null;
  file_type: FileType;
  storage_provider: StorageProvider;
  name: string | null;
  content_type: string | null;
  content_size: string | null;
  storage_key: string | null;
  external_provider_file_id: string | null;
  microsoft_drive_id: string | null;
  created_by: Actor;
  created_at: Date;
}

const COLUMNS = `id, object_id, record_id, parent_folder_id, file_type, storage_provider, name, content_type, content_size, storage_key,
  external_provider_file_id, microsoft_drive_id, created_by, created_at`;

/** A new entry that is ready at once (a folder or a connected entry). */
export type NewEntry = Omit<FileEntry, 'createdAt' | 'contentSize' | 'contentType' | 'storageKey'>;

/**
 * The files and folders of records, keyed by workspace first. Every read sees `ready` entries only:
 * an upload in progress (`uploading`, no record yet) is invisible until `completeUpload`.
 */
@Injectable()
export class FileRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /** `query` for a write naming a record and a parent folder, with a vanished one as a 404. */
  private referencing(recordId: string, parentFolderId: string | null) {
    return {
      query: async <Row>(sql: string, params: unknown[]): Promise<Row[]> => {
        try {
          return await this.transactions.query<Row>(sql, params);
        } catch (error) {
          throw goneReference(error, recordId, parentFolderId);
        }
      },
    };
  }

  async insertReady(entry: NewEntry): Promise<FileEntry> {
    const rows = await this.referencing(entry.recordId, entry.parentFolderId).query<FileRow>(
      `INSERT INTO files (workspace_id, id, state, object_id, record_id, parent_folder_id, file_type, storage_provider, name, external_provider_file_id, microsoft_drive_id, created_by)
       VALUES ($1, $2, 'ready', $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
      [
        entry.workspaceId,
        entry.id,
        entry.objectId,
        entry.recordId,
        entry.parentFolderId,
        entry.fileType,
        entry.storageProvider,
        entry.name,
        entry.externalProviderFileId,
        entry.microsoftDriveId,
        JSON.stringify(entry.createdBy),
      ],
    );
    return toEntry(entry.workspaceId, rows[0]);
  }

  /** An upload's entry before its bytes and its record are known; chunks hang off it. */
  async insertUploading(workspaceId: string, fileId: string, storageKey: string | null, createdBy: Actor): Promise<void> {
    await this.transactions.query(
      `INSERT INTO files (workspace_id, id, state, file_type, storage_provider, storage_key, created_by) VALUES ($1, $2, 'uploading', 'file', 'attio', $3, $4)`,
      [workspaceId, fileId, storageKey, JSON.stringify(createdBy)],
    );
  }

  /** Makes an upload a file of its record; null when the upload's entry is gone (swept). */
  async completeUpload(
    workspaceId: string,
    fileId: string,
    upload: { objectId: string; recordId: string; parentFolderId: string | null; name: string; contentType: string; contentSize: number },
  ): Promise<FileEntry | null> {
    const rows = await this.referencing(upload.recordId, upload.parentFolderId).query<FileRow>(
      `UPDATE files SET state = 'ready', object_id = $3, record_id = $4, parent_folder_id = $5, name = $6, content_type = $7, content_size = $8, created_at = date_trunc('milliseconds', clock_timestamp())
       WHERE workspace_id = $1 AND id = $2 AND state = 'uploading' RETURNING ${COLUMNS}`,
      [workspaceId, fileId, upload.objectId, upload.recordId, upload.parentFolderId, upload.name, upload.contentType, upload.contentSize],
    );
    return rows[0] ? toEntry(workspaceId, rows[0]) : null;
  }

  /** Removes an upload that failed, with its chunks (cascade). */
  async deleteUploading(workspaceId: string, fileId: string): Promise<void> {
    await this.transactions.query(`DELETE FROM files WHERE workspace_id = $1 AND id = $2 AND state = 'uploading'`, [workspaceId, fileId]);
  }

  async findById(workspaceId: string, fileId: string, options: { lock?: boolean } = {}): Promise<FileEntry | null> {
    const rows = await this.transactions.query<FileRow>(
      `SELECT ${COLUMNS} FROM files WHERE workspace_id = $1 AND id = $2 AND state = 'ready'${options.lock ? ' FOR UPDATE' : ''}`,
      [workspaceId, fileId],
    );
    return rows[0] ? toEntry(workspaceId, rows[0]) : null;
  }

  async hasChildren(workspaceId: string, folderId: string): Promise<boolean> {
    const rows = await this.transactions.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM files WHERE workspace_id = $1 AND parent_folder_id = $2 AND state = 'ready') AS found`,
      [workspaceId, folderId],
    );
    return rows[0].found;
  }

  /** A record's entries in (created_at, id) order after `after`, optionally of one provider or directly under one folder. */
  async listOfRecord(
    workspaceId: string,
    recordId: string,
    filter: { storageProvider: StorageProvider | null; parentFolderId: string | null; after: { createdAt: string; id: string } | null; limit: number },
  ): Promise<FileEntry[]> {
    const params: unknown[] = [workspaceId, recordId];
    const where = [`workspace_id = $1`, `record_id = $2`, `state = 'ready'`];
    if (filter.storageProvider) {
      params.push(filter.storageProvider);
      where.push(`storage_provider = $${params.length}`);
    }
    if (filter.parentFolderId) {
      params.push(filter.parentFolderId);
      where.push(`parent_folder_id = $${params.length}`);
    }
    if (filter.after) {
      params.push(filter.after.createdAt, filter.after.id);
      where.push(`(created_at, id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    params.push(filter.limit);
    const rows = await this.transactions.query<FileRow>(`SELECT ${COLUMNS} FROM files WHERE ${where.join(' AND ')} ORDER BY created_at, id LIMIT $${params.length}`, params);
    return rows.map((row) => toEntry(workspaceId, row));
  }

  /**
   * Deletes an entry and everything under it (the parent key cascades), and answers the storage
   * keys of the uploaded files among them, which the caller discards from external storage.
   */
  async deleteTree(workspaceId: string, fileId: string): Promise<string[]> {
    const rows = await this.transactions.query<{ storage_key: string }>(
      `WITH RECURSIVE tree AS (
         SELECT id, storage_key FROM files WHERE workspace_id = $1 AND id = $2
         UNION ALL
         SELECT f.id, f.storage_key FROM files f JOIN tree t ON f.workspace_id = $1 AND f.parent_folder_id = t.id
       ), removed AS (DELETE FROM files WHERE workspace_id = $1 AND id = $2)
       SELECT storage_key FROM tree WHERE storage_key IS NOT NULL`,
      [workspaceId, fileId],
    );
    return rows.map((row) => row.storage_key);
  }

  /** Deletes the entries of records (their chunks and sub-entries cascade); answers the storage keys of their uploaded files. */
  async deleteOfRecords(workspaceId: string, recordIds: readonly string[]): Promise<string[]> {
    const rows = await this.transactions.query<{ storage_key: string | null }>(
      `DELETE FROM files WHERE workspace_id = $1 AND record_id = ANY($2::uuid[]) RETURNING storage_key`,
      [workspaceId, recordIds],
    );
    return rows.flatMap((row) => (row.storage_key === null ? [] : [row.storage_key]));
  }

  /** Moves every entry of the `from` records to another record (a record merge keeps its originals' files). */
  async moveToRecord(workspaceId: string, fromRecordIds: readonly string[], to: { objectId: string; recordId: string }): Promise<number> {
    const rows = await this.transactions.query<{ id: string }>(
      `UPDATE files SET object_id = $3, record_id = $4 WHERE workspace_id = $1 AND record_id = ANY($2::uuid[]) RETURNING id`,
      [workspaceId, fromRecordIds, to.objectId, to.recordId],
    );
    return rows.length;
  }

  /** Keeps the storage keys of deleted entries until their objects are removed from external storage. */
  async recordDiscarded(workspaceId: string, storageKeys: readonly string[]): Promise<void> {
    if (storageKeys.length === 0) return;
    await this.transactions.query(
      `INSERT INTO discarded_file_contents (workspace_id, storage_key) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [workspaceId, storageKeys],
    );
  }

  /** Storage keys waiting to be removed, oldest first (machine-wide housekeeping, not a workspace's data). */
  async discardedBatch(limit: number): Promise<Array<{ workspaceId: string; storageKey: string }>> {
    const rows = await this.transactions.query<{ workspace_id: string; storage_key: string }>(
      `SELECT workspace_id, storage_key FROM discarded_file_contents ORDER BY discarded_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ workspaceId: row.workspace_id, storageKey: row.storage_key }));
  }

  async forgetDiscarded(workspaceId: string, storageKey: string): Promise<void> {
    await this.transactions.query(`DELETE FROM discarded_file_contents WHERE workspace_id = $1 AND storage_key = $2`, [workspaceId, storageKey]);
  }

  /** Removes uploads cut off before they completed (a killed process), older than `olderThanSeconds`; answers their storage keys. */
  async deleteAbandonedUploads(olderThanSeconds: number): Promise<Array<{ workspaceId: string; storageKey: string | null }>> {
    const rows = await this.transactions.query<{ workspace_id: string; storage_key: string | null }>(
      `DELETE FROM files WHERE state = 'uploading' AND created_at < clock_timestamp() - make_interval(secs => $1) RETURNING workspace_id, storage_key`,
      [olderThanSeconds],
    );
    return rows.map((row) => ({ workspaceId: row.workspace_id, storageKey: row.storage_key }));
  }
}

/**
 * The record or the parent folder an entry names was deleted by a concurrent request after it was
 * checked: its foreign key says which, and that is a 404, as it would have been a moment earlier.
 */
function goneReference(error: unknown, recordId: string, parentFolderId: string | null): unknown {
  const found = pgError(error);
  if (found?.kind !== 'foreignKeyViolation') return error;
  if (found.constraint?.includes('parent_folder')) return new NotFoundError(`parent_folder_id: no folder with id ${parentFolderId}.`, { field: 'parent_folder_id' });
  return new NotFoundError(`Record not found: no record ${recordId}.`, { field: 'record_id' });
}

function toEntry(workspaceId: string, row: FileRow): FileEntry {
  return {
    workspaceId,
    id: row.id,
    objectId: row.object_id,
    recordId: row.record_id,
    parentFolderId: row.parent_folder_id,
    fileType: row.file_type,
    storageProvider: row.storage_provider,
    name: row.name,
    contentType: row.content_type,
    contentSize: row.content_size === null ? null : Number(row.content_size),
    storageKey: row.storage_key,
    externalProviderFileId: row.external_provider_file_id,
    microsoftDriveId: row.microsoft_drive_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}
