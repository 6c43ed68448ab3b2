import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `updated_at` on every record, list entry and activity record: the time of the transaction that
 * last changed one of its values, its creation included. A column of the record row (set by the
 * same statements that insert the record or bump its version), so that it is filtered and sorted
 * on an index like `created_at`; existing rows take their latest value change.
 *
 * Every object, list and activity gets the read-only system attribute `updated_at`, as new ones do
 * when they are created. A container that already has a custom attribute with that slug keeps it
 * (custom, not the system one).
 */
export class RecordsUpdatedAt1765400000000 implements MigrationInterface {
  name = 'RecordsUpdatedAt1765400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE records ADD COLUMN updated_at timestamptz`);
    await db.query(`
      UPDATE records r SET updated_at = GREATEST(r.created_at, (
        SELECT max(GREATEST(v.active_from, COALESCE(v.active_until, v.active_from)))
        FROM record_values v WHERE v.workspace_id = r.workspace_id AND v.record_id = r.id))`);
    await db.query(`ALTER TABLE records ALTER COLUMN updated_at SET DEFAULT now(), ALTER COLUMN updated_at SET NOT NULL`);
    await db.query(`CREATE INDEX records_container_updated ON records (workspace_id, container_id, updated_at, id)`);
    for (const [kind, table] of [['object', 'objects'], ['list', 'lists'], ['activity', 'activities']] as const) {
      await db.query(`
        INSERT INTO attributes (workspace_id, id, container_kind, container_id, api_slug, title, type, is_system, is_writable, is_inherited, position)
        SELECT c.workspace_id, gen_random_uuid(), '${kind}', c.id, 'updated_at', 'Updated at', 'timestamp', true, false, ${kind === 'activity'},
          COALESCE((SELECT max(a.position) + 1 FROM attributes a WHERE a.workspace_id = c.workspace_id AND a.container_id = c.id), 0)
        FROM ${table} c
        ON CONFLICT ON CONSTRAINT attributes_slug_unique DO NOTHING`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM attributes WHERE api_slug = 'updated_at' AND is_system`);
    await db.query(`DROP INDEX records_container_updated`);
    await db.query(`ALTER TABLE records DROP COLUMN updated_at`);
  }
}
