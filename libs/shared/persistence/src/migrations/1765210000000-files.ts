import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files and folders of records (libs/files/README.md), and the chunks that hold uploaded bytes when
 * FILE_STORAGE is `postgres`.
 *
 * An upload is made `uploading` first, with no record yet (a multipart `file` part may come before
 * the `object` and `record_id` fields), its chunks written under it in short statements of their
 * own, then made `ready` on its record in one UPDATE. Reads see `ready` entries only. A failed upload
 * deletes its entry, and the chunks cascade; one cut off by a crash is swept after an hour.
 * A record's deletion cascades to its entries, a folder's to what is under it, an entry's to its
 * chunks. `discarded_file_contents` holds the keys of S3 objects whose entries are gone, written in
 * the deleting transaction, until a sweep has removed them from the bucket.
 */
export class Files1765210000000 implements MigrationInterface {
  name = 'Files1765210000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE files (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        state text NOT NULL DEFAULT 'ready' CHECK (state IN ('uploading', 'ready')),
        object_id uuid,
        record_id uuid,
        parent_folder_id uuid,
        file_type text NOT NULL CHECK (file_type IN ('file', 'folder', 'connected-file', 'connected-folder')),
        storage_provider text NOT NULL CHECK (storage_provider IN ('attio', 'dropbox', 'box', 'google-drive', 'microsoft-onedrive')),
        name text,
        content_type text,
        content_size bigint,
        storage_key text,
        external_provider_file_id text,
        microsoft_drive_id text,
        created_by jsonb NOT NULL,
        -- Milliseconds, as the wire and the list's cursor carry them, so that (created_at, id) pages neither skip nor repeat.
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, record_id) REFERENCES records (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, parent_folder_id) REFERENCES files (workspace_id, id) ON DELETE CASCADE,
        CONSTRAINT files_ready_on_record CHECK (state = 'uploading' OR (object_id IS NOT NULL AND record_id IS NOT NULL))
      )`);
    // A record's entries in (created_at, id) order, the list's keyset; a folder's children likewise.
    await db.query(`CREATE INDEX files_record ON files (workspace_id, record_id, created_at, id)`);
    await db.query(`CREATE INDEX files_parent ON files (workspace_id, parent_folder_id, created_at, id) WHERE parent_folder_id IS NOT NULL`);
    await db.query(`CREATE INDEX files_uploading ON files (created_at) WHERE state = 'uploading'`);
    await db.query(`
      CREATE TABLE file_chunks (
        workspace_id uuid NOT NULL,
        file_id uuid NOT NULL,
        seq integer NOT NULL CHECK (seq >= 0),
        data bytea NOT NULL,
        PRIMARY KEY (workspace_id, file_id, seq),
        FOREIGN KEY (workspace_id, file_id) REFERENCES files (workspace_id, id) ON DELETE CASCADE
      )`);
    // Chunks are written once and read whole: no compression of already-compressed uploads, and no TOAST compression attempt per chunk.
    await db.query(`ALTER TABLE file_chunks ALTER COLUMN data SET STORAGE EXTERNAL`);
    await db.query(`
      CREATE TABLE discarded_file_contents (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        storage_key text NOT NULL,
        discarded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, storage_key)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE discarded_file_contents`);
    await db.query(`DROP TABLE file_chunks`);
    await db.query(`DROP TABLE files`);
  }
}
