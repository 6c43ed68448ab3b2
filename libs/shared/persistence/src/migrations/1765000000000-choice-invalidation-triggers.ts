import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Select options and statuses join the `schema` topic: record writes look them up by id or title
 * through a per-process cache (AttributeDirectory), which must drop an option archived or renamed
 * in any process at the commit of that change. Same trigger function as the other cached tables.
 */
const CHOICE_TABLES = ['select_options', 'statuses'];

export class ChoiceInvalidationTriggers1765000000000 implements MigrationInterface {
  name = 'ChoiceInvalidationTriggers1765000000000';

  async up(db: QueryRunner): Promise<void> {
    for (const table of CHOICE_TABLES) {
      await db.query(`
        CREATE TRIGGER ${table}_invalidate_schema AFTER INSERT OR UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION workbase_notify_invalidation('schema', 'workspace_id')`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of CHOICE_TABLES) await db.query(`DROP TRIGGER ${table}_invalidate_schema ON ${table}`);
  }
}
