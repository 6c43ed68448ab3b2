import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A list's `workspace_member_access` moves from a jsonb array on `lists` to rows whose foreign
 * keys include `workspace_id`: no code path can grant access to another workspace's member, or to
 * an id that is no member at all (the array accepted both). Entries of the array that named no
 * member of the list's workspace are dropped here; they granted nothing to anyone.
 */
export class ListMemberAccess1764900000000 implements MigrationInterface {
  name = 'ListMemberAccess1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE list_member_access (
        workspace_id uuid NOT NULL,
        list_id uuid NOT NULL,
        workspace_member_id uuid NOT NULL,
        level text NOT NULL CHECK (level IN ('full-access', 'read-and-write', 'read-only')),
        position int NOT NULL,
        PRIMARY KEY (workspace_id, list_id, workspace_member_id),
        FOREIGN KEY (workspace_id, list_id) REFERENCES lists (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, workspace_member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`
      INSERT INTO list_member_access (workspace_id, list_id, workspace_member_id, level, position)
      SELECT DISTINCT ON (l.workspace_id, l.id, m.id) l.workspace_id, l.id, m.id, grant_row.value ->> 'level', grant_row.ordinality::int
        FROM lists l
        CROSS JOIN LATERAL jsonb_array_elements(l.workspace_member_access) WITH ORDINALITY AS grant_row (value, ordinality)
        JOIN workspace_members m ON m.workspace_id = l.workspace_id AND m.id::text = grant_row.value ->> 'workspace_member_id'
       WHERE grant_row.value ->> 'level' IN ('full-access', 'read-and-write', 'read-only')
       ORDER BY l.workspace_id, l.id, m.id, grant_row.ordinality`);
    await db.query(`ALTER TABLE lists DROP COLUMN workspace_member_access`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE lists ADD COLUMN workspace_member_access jsonb NOT NULL DEFAULT '[]'`);
    await db.query(`
      UPDATE lists l SET workspace_member_access = coalesce((
        SELECT jsonb_agg(jsonb_build_object('workspace_member_id', a.workspace_member_id, 'level', a.level) ORDER BY a.position)
          FROM list_member_access a WHERE a.workspace_id = l.workspace_id AND a.list_id = l.id), '[]')`);
    await db.query(`DROP TABLE list_member_access`);
  }
}
