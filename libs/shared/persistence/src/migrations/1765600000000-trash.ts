import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trash (issue 31 part 1): a delete moves what it removes here, one row per deleted item with
 * the removed rows of every table as JSON (libs/trash/src/domain/trash-plan.ts), so the live
 * tables, their unique constraints and every read stay as they were. Listed newest first per kind
 * and container; the retention sweep reads by deleted_at.
 */
export class Trash1765600000000 implements MigrationInterface {
  name = 'Trash1765600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE trash_items (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('records', 'entries', 'notes', 'tasks', 'comments')),
        container_id uuid,
        -- Milliseconds, as the wire and the list's cursor carry them.
        deleted_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
        deleted_by jsonb NOT NULL,
        saved_rows jsonb NOT NULL,
        closed_references bigint[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (workspace_id, id)
      )`);
    await db.query(`CREATE INDEX trash_items_listing ON trash_items (workspace_id, kind, container_id, deleted_at DESC, id DESC)`);
    await db.query(`CREATE INDEX trash_items_age ON trash_items (deleted_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE trash_items`);
  }
}
