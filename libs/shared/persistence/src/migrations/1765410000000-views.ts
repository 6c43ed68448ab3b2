import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved views of objects and lists (issue 32 part 2; attio-2026-surface §2): a title, a layout
 * type, a filter in the record query language, sorts and the shown attributes. Listed by view id
 * ascending (the reference's order), so the keyset index is (workspace, container, id).
 */
export class Views1765410000000 implements MigrationInterface {
  name = 'Views1765410000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE views (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        container_kind text NOT NULL CHECK (container_kind IN ('object', 'list')),
        container_id uuid NOT NULL,
        title text NOT NULL,
        type text NOT NULL CHECK (type IN ('table', 'board')),
        filter jsonb,
        sorts jsonb NOT NULL DEFAULT '[]',
        attributes jsonb NOT NULL DEFAULT '[]',
        is_archived boolean NOT NULL DEFAULT false,
        created_by jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id)
      )`);
    await db.query(`CREATE INDEX views_container ON views (workspace_id, container_id, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE views`);
  }
}
