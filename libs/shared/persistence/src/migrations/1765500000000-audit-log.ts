import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (libs/audit): one entry per change, written in the change's transaction with its
 * own content hash (computed by the writer, `auditContentHash` in the kernel) and nothing else: no
 * lock, no trigger, no link to another entry, so writes to one workspace never wait for each other.
 *
 * The worker's sealer chains each workspace's entries afterwards, behind the commit horizon (the
 * event feed's rule: only entries of transactions older than the oldest one still running, in
 * `(tx_id, entry_no)` order, which no later commit can fall behind). It numbers them (`seq`) and
 * sets `prev_hash` and `hash = sha256(seq:prev_hash:content_hash)`. `audit_chain_heads` holds
 * each chain's last link and its anchor: 64 zeros, or after a retention cut the hash of the last
 * entry removed, so the kept entries still verify.
 *
 * Indexes: the write path pays for the workspace order and the three filters; the sealer's own
 * index is partial (unsealed entries only) and the time filter is a BRIN (entries arrive in time
 * order), both almost free on insert.
 */
export class AuditLog1765500000000 implements MigrationInterface {
  name = 'AuditLog1765500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_chain_heads (
        workspace_id uuid PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
        last_seq bigint NOT NULL DEFAULT 0,
        last_hash text NOT NULL DEFAULT repeat('0', 64),
        anchor_seq bigint NOT NULL DEFAULT 0,
        anchor_hash text NOT NULL DEFAULT repeat('0', 64)
      )`);
    await db.query(`
      CREATE TABLE audit_log (
        entry_no bigint GENERATED ALWAYS AS IDENTITY,
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        id uuid NOT NULL,
        occurred_at timestamptz NOT NULL,
        actor jsonb NOT NULL,
        actor_id text,
        request_id text,
        action text NOT NULL,
        target_kind text NOT NULL,
        target_id text NOT NULL,
        target jsonb NOT NULL,
        changes jsonb,
        content_hash text NOT NULL,
        seq bigint,
        prev_hash text,
        hash text,
        -- The log's order in a workspace, and its key (distributable by workspace_id).
        CONSTRAINT audit_log_order PRIMARY KEY (workspace_id, tx_id, entry_no)
      )`);
    await db.query(`CREATE INDEX audit_log_actor ON audit_log (workspace_id, actor_id, tx_id, entry_no)`);
    await db.query(`CREATE INDEX audit_log_target ON audit_log (workspace_id, target_id, tx_id, entry_no)`);
    await db.query(`CREATE INDEX audit_log_action ON audit_log (workspace_id, action, tx_id, entry_no)`);
    await db.query(`CREATE INDEX audit_log_time ON audit_log USING brin (occurred_at)`);
    await db.query(`CREATE INDEX audit_log_unsealed ON audit_log (tx_id, entry_no) WHERE seq IS NULL`);
    await db.query(`CREATE UNIQUE INDEX audit_log_chain ON audit_log (workspace_id, seq) WHERE seq IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE audit_log`);
    await db.query(`DROP TABLE audit_chain_heads`);
  }
}
