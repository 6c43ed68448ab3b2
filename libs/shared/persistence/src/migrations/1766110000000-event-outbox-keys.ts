import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every write inserts at least one outbox row, which paid four btrees: the key `(workspace_id,
 * id)`, `(id)`, and the two commit orders, `(tx_id, id)` for fan-out and `(workspace_id, tx_id,
 * id)` for the change feed. The feed's order is a key too (`id` is unique alone), so it becomes the
 * primary key, and the joins that used `(workspace_id, id)` also name `tx_id`; nothing reads by `id`
 * alone. Two btrees per event instead of four.
 */
export class EventOutboxKeys1766110000000 implements MigrationInterface {
  name = 'EventOutboxKeys1766110000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE event_outbox DROP CONSTRAINT event_outbox_pkey`);
    await db.query(`DROP INDEX event_outbox_sequence`);
    await db.query(`DROP INDEX event_outbox_workspace_commit_order`);
    await db.query(`ALTER TABLE event_outbox ADD CONSTRAINT event_outbox_workspace_commit_order PRIMARY KEY (workspace_id, tx_id, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE event_outbox DROP CONSTRAINT event_outbox_workspace_commit_order`);
    await db.query(`CREATE INDEX event_outbox_workspace_commit_order ON event_outbox (workspace_id, tx_id, id)`);
    await db.query(`CREATE INDEX event_outbox_sequence ON event_outbox (id)`);
    await db.query(`ALTER TABLE event_outbox ADD CONSTRAINT event_outbox_pkey PRIMARY KEY (workspace_id, id)`);
  }
}
