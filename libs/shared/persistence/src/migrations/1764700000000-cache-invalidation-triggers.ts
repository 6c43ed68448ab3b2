import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Caches of one process learn at once what another process changed: a trigger on each cached
 * table notifies `workbase_invalidations` with `<topic>:<workspace id>` in the writing
 * transaction, so PostgreSQL delivers it at commit (and never for a rolled-back change; identical
 * notifications of one transaction are delivered once). See `CacheInvalidations`.
 *
 * `auth` covers what a token lookup reads: tokens, members (state, access level) and workspaces.
 * Inserts need no notice there: only live grants are cached, never the absence of one.
 * `schema` covers what a container lookup reads: objects, lists and attributes, inserts included
 * (a new attribute must be writable at once everywhere).
 */
const SCHEMA_TABLES = ['objects', 'lists', 'attributes'];

export class CacheInvalidationTriggers1764700000000 implements MigrationInterface {
  name = 'CacheInvalidationTriggers1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION workbase_notify_invalidation() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed jsonb := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
      BEGIN
        -- TG_ARGV: the topic, then the column holding the row's workspace id.
        PERFORM pg_notify('workbase_invalidations', TG_ARGV[0] || ':' || coalesce(changed ->> TG_ARGV[1], ''));
        RETURN NULL;
      END $$`);
    for (const [table, column] of [['api_tokens', 'workspace_id'], ['workspace_members', 'workspace_id'], ['workspaces', 'id']]) {
      await db.query(`
        CREATE TRIGGER ${table}_invalidate_auth AFTER UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION workbase_notify_invalidation('auth', '${column}')`);
    }
    for (const table of SCHEMA_TABLES) {
      await db.query(`
        CREATE TRIGGER ${table}_invalidate_schema AFTER INSERT OR UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION workbase_notify_invalidation('schema', 'workspace_id')`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of SCHEMA_TABLES) await db.query(`DROP TRIGGER ${table}_invalidate_schema ON ${table}`);
    for (const table of ['api_tokens', 'workspace_members', 'workspaces']) await db.query(`DROP TRIGGER ${table}_invalidate_auth ON ${table}`);
    await db.query(`DROP FUNCTION workbase_notify_invalidation()`);
  }
}
