import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed OAuth sign-ins per email address and per client address, shared by every API process
 * (libs/oauth/src/infrastructure/sign-in-failure.store.ts), so that a lock holds across replicas
 * and restarts. One row per (kind, key) and failure window: the window starts at the first failure
 * and lasts 15 minutes; a failure after it starts a new one on the same row.
 *
 * Not keyed by workspace: one email signs in to every workspace at once, and a client address
 * belongs to none. The key is a SHA-256 of the normalised email or of the address, never the
 * value itself. UNLOGGED like `request_rate_windows`: counters of the last 15 minutes are not
 * worth a WAL write per failure, and losing them in a crash only ends the current windows early.
 */
export class OAuthSignInFailures1764000000000 implements MigrationInterface {
  name = 'OAuthSignInFailures1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE UNLOGGED TABLE oauth_sign_in_failures (
        kind text NOT NULL CHECK (kind IN ('email', 'client')),
        key_hash bytea NOT NULL,
        window_start timestamptz NOT NULL,
        failures integer NOT NULL CHECK (failures > 0),
        PRIMARY KEY (kind, key_hash)
      )`);
    await db.query(`CREATE INDEX oauth_sign_in_failures_window_start ON oauth_sign_in_failures (window_start)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE oauth_sign_in_failures`);
  }
}
