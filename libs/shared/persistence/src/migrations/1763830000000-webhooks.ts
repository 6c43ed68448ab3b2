import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outgoing webhooks: endpoints with their subscriptions, one delivery per (webhook, event) with its
 * attempts, a token bucket per endpoint, and the fan-out cursor over the event outbox.
 *
 * The outbox gains `tx_id` (the writing transaction's id): identity values are handed out before
 * commit, so a cursor over `id` alone would skip an event whose transaction commits after a later
 * one. Fan-out reads only rows whose transaction is older than every transaction still running
 * (`pg_snapshot_xmin`), in (tx_id, id) order, which no later commit can fall behind.
 */
export class Webhooks1763830000000 implements MigrationInterface {
  name = 'Webhooks1763830000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE event_outbox ADD COLUMN tx_id xid8 NOT NULL DEFAULT pg_current_xact_id()`);
    await db.query(`CREATE INDEX event_outbox_commit_order ON event_outbox (tx_id, id)`);
    await db.query(`
      CREATE TABLE webhooks (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        target_url text NOT NULL,
        subscriptions jsonb NOT NULL,
        secret text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'degraded', 'inactive')),
        consecutive_failures integer NOT NULL DEFAULT 0,
        failing_since timestamptz,
        degraded_since timestamptz,
        inactive_reason text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id)
      )`);
    await db.query(`CREATE INDEX webhooks_created ON webhooks (workspace_id, created_at, id)`);
    await db.query(`
      CREATE TABLE webhook_deliveries (
        workspace_id uuid NOT NULL,
        id uuid NOT NULL,
        webhook_id uuid NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        event_id bigint NOT NULL,
        event_type text NOT NULL,
        event_occurred_at timestamptz NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        completed_at timestamptz,
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT webhook_deliveries_once UNIQUE (workspace_id, webhook_id, event_id),
        FOREIGN KEY (workspace_id, webhook_id) REFERENCES webhooks (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX webhook_deliveries_log ON webhook_deliveries (workspace_id, webhook_id, seq DESC)`);
    await db.query(`
      CREATE TABLE webhook_delivery_attempts (
        workspace_id uuid NOT NULL,
        delivery_id uuid NOT NULL,
        id bigint GENERATED ALWAYS AS IDENTITY,
        trigger text NOT NULL CHECK (trigger IN ('automatic', 'replay')),
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        error text,
        succeeded boolean NOT NULL,
        PRIMARY KEY (workspace_id, delivery_id, id),
        FOREIGN KEY (workspace_id, delivery_id) REFERENCES webhook_deliveries (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`
      CREATE TABLE webhook_rate_buckets (
        workspace_id uuid NOT NULL,
        webhook_id uuid NOT NULL,
        tokens double precision NOT NULL,
        refilled_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, webhook_id),
        FOREIGN KEY (workspace_id, webhook_id) REFERENCES webhooks (workspace_id, id) ON DELETE CASCADE
      )`);
    // Process state, not tenant data: one row per consumer of the whole outbox.
    await db.query(`
      CREATE TABLE webhook_dispatch_cursor (
        consumer text PRIMARY KEY,
        last_tx_id xid8 NOT NULL,
        last_event_id bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await db.query(`INSERT INTO webhook_dispatch_cursor (consumer, last_tx_id, last_event_id) VALUES ('webhooks', '0', 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_dispatch_cursor`);
    await db.query(`DROP TABLE webhook_rate_buckets`);
    await db.query(`DROP TABLE webhook_delivery_attempts`);
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`DROP TABLE webhooks`);
    await db.query(`DROP INDEX event_outbox_commit_order`);
    await db.query(`ALTER TABLE event_outbox DROP COLUMN tx_id`);
  }
}
