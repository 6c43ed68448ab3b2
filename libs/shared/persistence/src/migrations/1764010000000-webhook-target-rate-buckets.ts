import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook delivery rate limits per target endpoint instead of per webhook: one token bucket per
 * normalised target (`scheme://host:port/path`, libs/webhooks/src/domain/rate-target.ts), shared
 * by every webhook of every workspace that posts to it, so that several webhooks on one receiver
 * together stay within its rate.
 *
 * Not keyed by workspace: a receiver belongs to no workspace, and the point is to count across
 * them. The key is a SHA-256 of the normalised target, never the URL itself (paths can hold
 * secrets). UNLOGGED like `request_rate_windows`: one upsert per delivery attempt is not worth a
 * WAL write, and a crash that empties the table only lets each target start with a full bucket.
 * A bucket idle long enough to be full again is the same as no row; the worker sweeps those.
 */
export class WebhookTargetRateBuckets1764010000000 implements MigrationInterface {
  name = 'WebhookTargetRateBuckets1764010000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE UNLOGGED TABLE webhook_target_rate_buckets (
        target_hash bytea PRIMARY KEY CHECK (octet_length(target_hash) = 32),
        tokens double precision NOT NULL,
        refilled_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX webhook_target_rate_buckets_refilled_at ON webhook_target_rate_buckets (refilled_at)`);
    // Per-webhook buckets hold only a few seconds of state: starting the new ones full is harmless.
    await db.query(`DROP TABLE webhook_rate_buckets`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_rate_buckets (
        workspace_id uuid NOT NULL,
        webhook_id uuid NOT NULL,
        tokens double precision NOT NULL,
        refilled_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, webhook_id),
        FOREIGN KEY (workspace_id, webhook_id) REFERENCES webhooks (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`DROP TABLE webhook_target_rate_buckets`);
  }
}
