import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Substring filters (`$contains`, `$ends_with`) compile to `lower(value_text) LIKE '%…%'`, which no
 * btree can serve: a rare substring scanned every current value of the workspace. A trigram GIN
 * index over current text values serves them (and `$starts_with` too, though the btree
 * `record_values_text_ci` already does).
 *
 * pg_trgm ships with PostgreSQL and is a trusted extension (PG 13+: a database owner may create
 * it). Where a managed server refuses it anyway, the migration leaves a notice and no index:
 * substring filters still work, by scanning, rather than the service failing to start.
 */
export class RecordValuesTrigram1764020000000 implements MigrationInterface {
  name = 'RecordValuesTrigram1764020000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      DO $$
      BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
      EXCEPTION WHEN insufficient_privilege OR undefined_file OR feature_not_supported THEN
        RAISE NOTICE 'pg_trgm is not available (%): substring filters will scan instead of using an index', SQLERRM;
      END $$`);
    await db.query(`
      DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          CREATE INDEX record_values_text_trgm ON record_values USING gin (lower(value_text) gin_trgm_ops) WHERE active_until IS NULL;
        END IF;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX IF EXISTS record_values_text_trgm`);
  }
}
