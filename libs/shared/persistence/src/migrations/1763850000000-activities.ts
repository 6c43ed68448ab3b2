import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Activities: record containers of kind 'activity'. Their attributes, records and values live in
 * the record engine's tables (`container_id` = the activity's id); this table holds the activity
 * itself. `extends` names the schema whose attributes the activity inherits and never changes.
 * See libs/activities/README.md.
 */
export class Activities1763850000000 implements MigrationInterface {
  name = 'Activities1763850000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE activities (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        api_slug text NOT NULL,
        singular_noun text NOT NULL,
        plural_noun text NOT NULL,
        extends text NOT NULL CHECK (extends IN ('activities', 'interactions', 'calls', 'emails')),
        is_system boolean NOT NULL DEFAULT false,
        is_archived boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT activities_slug_unique UNIQUE (workspace_id, api_slug)
      )`);
    // The default list: live activities in creation order.
    await db.query(`CREATE INDEX activities_listed ON activities (workspace_id, is_archived, created_at, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE activities`);
  }
}
