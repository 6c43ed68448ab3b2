import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Case-insensitive filters compare `lower(value_text)`, served by the partial index
 * `record_values_text_ci`. PostgreSQL keeps no statistics for the expressions of partial
 * indexes, so it guessed 0.5% of all values for `lower(value_text) = $1` and chose to scan every
 * record of the container instead of joining the one match. Expression statistics (PostgreSQL
 * 14+) give the planner real frequencies. See libs/records/README.md.
 */
export class RecordQueryStatistics1763904100000 implements MigrationInterface {
  name = 'RecordQueryStatistics1763904100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE STATISTICS record_values_lower_text ON (lower(value_text)) FROM record_values`);
    await db.query(`ANALYZE record_values`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP STATISTICS record_values_lower_text`);
  }
}
