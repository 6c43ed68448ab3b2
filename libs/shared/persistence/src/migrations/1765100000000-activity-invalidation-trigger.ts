import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Activities join the `schema` topic: the SQL endpoint keeps each workspace's tables (objects,
 * lists and activities with their live attributes) per process, and must drop an activity renamed
 * or removed in any process at the commit of that change. Same trigger function as the other
 * cached tables (CacheInvalidationTriggers).
 */
export class ActivityInvalidationTrigger1765100000000 implements MigrationInterface {
  name = 'ActivityInvalidationTrigger1765100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TRIGGER activities_invalidate_schema AFTER INSERT OR UPDATE OR DELETE ON activities
      FOR EACH ROW EXECUTE FUNCTION workbase_notify_invalidation('schema', 'workspace_id')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER activities_invalidate_schema ON activities`);
  }
}
