import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Request rate-limit counters shared by every API process (libs/shared/http/src/rate-limit.store.ts).
 * Keyed by the hashed token (not a workspace: a limit belongs to a credential). UNLOGGED: counters
 * of the last second are worthless after a crash, and skipping the WAL keeps the per-request write
 * cheap.
 */
export class RequestRateWindows1763990000000 implements MigrationInterface {
  name = 'RequestRateWindows1763990000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE UNLOGGED TABLE request_rate_windows (
        key text NOT NULL,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (key, window_start)
      )`);
    await db.query(`CREATE INDEX request_rate_windows_window_start ON request_rate_windows (window_start)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE request_rate_windows`);
  }
}
