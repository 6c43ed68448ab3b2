import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Lists are record containers too: their entries are rows of `records` with a parent record. */
export class Lists1763880000000 implements MigrationInterface {
  name = 'Lists1763880000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE lists (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        api_slug text NOT NULL,
        name text NOT NULL,
        parent_object_id uuid NOT NULL,
        workspace_access text CHECK (workspace_access IN ('full-access', 'read-and-write', 'read-only')),
        workspace_member_access jsonb NOT NULL DEFAULT '[]',
        created_by jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT lists_slug_unique UNIQUE (workspace_id, api_slug),
        FOREIGN KEY (workspace_id, parent_object_id) REFERENCES objects (workspace_id, id) ON DELETE CASCADE
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE lists`);
  }
}
